package server

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockstep/lockstep/internal/lesson"
)

// A classroom opening one lesson at once makes one chapters run, not one
// per student: twenty sessions asking together wait for the first's run
// and get its chapters.
func TestChapterBookRunsALessonOnce(t *testing.T) {
	var b chapterBook
	var runs atomic.Int32
	release := make(chan struct{})
	find := func() ([]lesson.Chapter, error) {
		runs.Add(1)
		<-release
		return []lesson.Chapter{{Step: 3}}, nil
	}
	var wg sync.WaitGroup
	got := make([][]lesson.Chapter, 20)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = b.get(chapterKey{"no-lock-oversell", 1}, find)
		}()
	}
	close(release)
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Errorf("%d chapters runs for one lesson and seed, want 1", n)
	}
	for i, g := range got {
		if len(g) != 1 || g[0].Step != 3 {
			t.Errorf("session %d got %v", i, g)
		}
	}
	// Another seed is another run.
	b.get(chapterKey{"no-lock-oversell", 2}, find)
	if n := runs.Load(); n != 2 {
		t.Errorf("%d runs after a second seed, want 2", n)
	}
}

// A run that failed (a budget, say) is not kept: the next session tries
// again. The book keeps at most chapterBookSize lessons, the oldest
// leaving first.
func TestChapterBookForgetsFailuresAndTheOldest(t *testing.T) {
	var b chapterBook
	runs := 0
	fail := func() ([]lesson.Chapter, error) { runs++; return nil, errors.New("over budget") }
	ok := func() ([]lesson.Chapter, error) { runs++; return []lesson.Chapter{{Step: 1}}, nil }
	k := chapterKey{"x", 0}
	b.get(k, fail)
	if got := b.get(k, ok); len(got) != 1 || runs != 2 {
		t.Errorf("after a failed run: %v in %d runs, want the chapters in 2", got, runs)
	}
	for i := range chapterBookSize {
		b.get(chapterKey{"y", int64(i)}, ok)
	}
	if len(b.m) != chapterBookSize || len(b.order) != chapterBookSize {
		t.Errorf("the book holds %d (%d in order), want %d", len(b.m), len(b.order), chapterBookSize)
	}
	runs = 0
	b.get(k, ok) // the oldest, pushed out
	if runs != 1 {
		t.Errorf("the oldest lesson: %d runs, want 1 (it left the book)", runs)
	}
}

// A run that panics ends the session that asked (its panic goes on) and
// is not kept either.
func TestChapterBookForgetsAPanic(t *testing.T) {
	var b chapterBook
	k := chapterKey{"z", 0}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic of the run did not reach the asking session")
			}
		}()
		b.get(k, func() ([]lesson.Chapter, error) { panic("boom") })
	}()
	if got := b.get(k, func() ([]lesson.Chapter, error) { return []lesson.Chapter{{Step: 2}}, nil }); len(got) != 1 {
		t.Errorf("after a panicked run: %v, want the chapters of a new run", got)
	}
}
