package server

import (
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lockstep/lockstep/internal/embedded"
	"github.com/lockstep/lockstep/internal/lesson"
	"github.com/lockstep/lockstep/internal/scenario"
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

// chaptersOf reads a state's chapters.
func chaptersOf(t *testing.T, m Message) []lesson.Chapter {
	t.Helper()
	var out []lesson.Chapter
	if m.Snap == nil {
		t.Fatalf("%s: no snapshot", m.Type)
	}
	if len(m.Snap.Chapters) > 0 {
		if err := json.Unmarshal(m.Snap.Chapters, &out); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Every way of loading gets the chapters of its own run: a file a user
// wrote (three clients, lines on a fault, a mark of the third client, and
// an expiry of a key nobody sets, never said), a built-in lesson on
// another seed, and the same lesson with recorded actions. Expected
// first: the user's file has two chapters, the pause before C's lock; the
// lesson on seed 7 has its chapters; with a recorded pause the run leaves
// its script at once and has none; each equals what lesson.Chapters finds
// for that scenario and seed.
func TestChaptersOfEveryKindOfLoad(t *testing.T) {
	srv, url := newTestServer(t, Limits{})
	c, _, err := dial(t, url, "")
	if err != nil {
		t.Fatal(err)
	}
	c.hello("")
	yaml := "scenarios:\n  - id: three\n    title: {en: Three, zh: 三个}\n" +
		"    clients:\n" +
		"      - {name: A, algorithm: lua-compare-delete, params: {ttl: 2s, retry: 100ms}, task: none, work: 500ms}\n" +
		"      - {name: B, algorithm: lua-compare-delete, params: {ttl: 2s, retry: 100ms}, task: none, work: 500ms, start: 50ms}\n" +
		"      - {name: C, algorithm: lua-compare-delete, params: {ttl: 2s, retry: 100ms}, task: none, work: 500ms, start: 100ms}\n" +
		"    faults:\n      - {at: 200ms, do: pause, client: A, for: 300ms}\n" +
		"    narration:\n" +
		"      - {on: {kind: mark, name: acquired, client: C}, en: \"C has it.\", zh: \"C 拿到了。\"}\n" +
		"      - {on: {kind: fault, name: pause, client: A}, en: \"A stalls.\", zh: \"A 卡住了。\"}\n" +
		"      - {on: {kind: expire, key: nobody-sets-this}, en: \"Never.\", zh: \"从不。\"}\n" +
		"    expect: [safe]\n"
	c.send(map[string]any{"op": "load", "yaml": yaml})
	got := chaptersOf(t, c.next("state"))
	f, err := scenario.Parse("three.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	want, err := lesson.Chapters(&f.Scenarios[0], lesson.Config{Seed: f.Scenarios[0].Seed, Servers: embedded.Servers{}}, 50000)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text.En != "A stalls." || got[1].Text.En != "C has it." || got[0].Step >= got[1].Step {
		t.Errorf("the user's file: chapters %+v, want the pause, then C's lock", got)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the user's file: the server's chapters %+v, lesson.Chapters %+v", got, want)
	}

	lessonSc, _ := srv.find("blind-del-slow-release")
	for _, load := range []map[string]any{
		{"op": "load", "scenario": "blind-del-slow-release", "seed": 7},
		{"op": "load", "scenario": "blind-del-slow-release", "seed": 7, "actions": []map[string]any{{"step": 2, "do": "pause", "client": "A", "for": "100ms"}}},
	} {
		c.send(load)
		got := chaptersOf(t, c.next("state"))
		sc := *lessonSc
		if a, ok := load["actions"]; ok {
			b, _ := json.Marshal(a)
			if err := json.Unmarshal(b, &sc.Schedule); err != nil {
				t.Fatal(err)
			}
		}
		want, err := lesson.Chapters(&sc, lesson.Config{Seed: 7, Servers: embedded.Servers{}}, 50000)
		if err != nil {
			t.Fatal(err)
		}
		_, offScript := load["actions"]
		if len(got) == 0 != offScript || !reflect.DeepEqual(got, want) {
			t.Errorf("%v: the server's chapters %+v, lesson.Chapters %+v", load, got, want)
		}
	}
}
