package lesson

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lockstep/lockstep/internal/sim"
)

// Every reply in the catalog carries its answer (the page's badge reads
// it, not the text), and the answer agrees with the reply's text as
// redis-cli writes it: read here independently of the engine.
func TestEveryReplyCarriesItsAnswer(t *testing.T) {
	seen := map[sim.AnswerType]int{}
	for _, sc := range catalog(t).Scenarios {
		r, err := New(&sc, cfg(sc.Seed))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.RunToEnd(); err != nil {
			t.Fatal(err)
		}
		for _, e := range r.World.Log() {
			if e.Kind != sim.KindExec && e.Kind != sim.KindReply || e.Reply == "" {
				continue
			}
			want, ok := answerOfText(e.Reply)
			if !ok {
				t.Errorf("%s #%d: a reply this test cannot read: %q", sc.ID, e.Seq, e.Reply)
				continue
			}
			if e.Answer != want {
				t.Errorf("%s #%d: reply %q has answer %+v, want %+v", sc.ID, e.Seq, e.Reply, e.Answer, want)
			}
			seen[e.Answer.Type]++
		}
		r.Close()
	}
	// The catalog shows every kind of answer but a status other than OK.
	for _, k := range []sim.AnswerType{sim.AnswerOK, sim.AnswerNil, sim.AnswerInt, sim.AnswerError, sim.AnswerRefused, sim.AnswerString} {
		if seen[k] == 0 {
			t.Errorf("no %s answer in the catalog", k)
		}
	}
}

var (
	codeRe = regexp.MustCompile(`^[A-Z][A-Z_-]{2,}\b`)
	itemRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|\(integer\) -?\d+|\(nil\)|OK`)
)

// answerOfText reads a reply's answer from its text: the last of a
// pipeline's replies; an array of one reply that is not a string, by it.
func answerOfText(r string) (sim.Answer, bool) {
	if i := strings.LastIndex(r, "; "); i >= 0 {
		r = r[i+2:]
	}
	if strings.HasPrefix(r, "[") && !strings.HasPrefix(r, `["`) && !strings.Contains(r, ", ") {
		r = r[1 : len(r)-1]
	}
	switch {
	case r == "OK" || strings.HasPrefix(r, "OK, "):
		return sim.Answer{Type: sim.AnswerOK}, true
	case r == "(nil)":
		return sim.Answer{Type: sim.AnswerNil}, true
	case r == "(empty array)":
		return sim.Answer{Type: sim.AnswerEmpty}, true
	case strings.HasPrefix(r, "(integer) "):
		return sim.Answer{Type: sim.AnswerInt, Gist: r[len("(integer) "):]}, true
	case strings.HasPrefix(r, "(error) connection refused"):
		return sim.Answer{Type: sim.AnswerRefused}, true
	case strings.Contains(r, "UNIQUE constraint failed"):
		return sim.Answer{Type: sim.AnswerError, Gist: "UNIQUE"}, true
	case strings.HasPrefix(r, "(error) "):
		return sim.Answer{Type: sim.AnswerError, Gist: codeRe.FindString(r[len("(error) "):])}, true
	case strings.HasPrefix(r, "[") && strings.HasSuffix(r, "]"):
		return sim.Answer{Type: sim.AnswerList, Gist: strconv.Itoa(len(itemRe.FindAllString(r, -1)))}, true
	case len(r) >= 2 && strings.HasPrefix(r, `"`) && strings.HasSuffix(r, `"`):
		return sim.Answer{Type: sim.AnswerString, Gist: r[1 : len(r)-1]}, true
	}
	return sim.Answer{}, false
}
