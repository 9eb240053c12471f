// Package storage is the protected resource of the fencing lesson: a
// storage service of the world (a sim.Handler) that clients write to from
// inside their critical section, with or without a fencing-token check.
package storage

import (
	"errors"
	"fmt"
	"github.com/lockstep/lockstep/internal/fact"
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// Storage is the protected resource of the fencing lesson (catalog row 16):
// a storage service (a file server, a database table) that clients write
// to from inside their critical section. Its one command is
//
//	WRITE key value [TOKEN n]
//
// Plain storage accepts every write. Fencing storage remembers, per key, the
// highest fencing token it has accepted and rejects a write whose token is
// lower (or missing): the check Kleppmann's "How to do distributed locking"
// asks of the resource. Accepted writes reply OK; rejected ones an error.
type Storage struct {
	fencing bool
	highest map[string]int64
	data    map[string]string
}

// New makes an empty storage service; fencing makes it check tokens.
func New(fencing bool) *Storage {
	return &Storage{fencing: fencing, highest: map[string]int64{}, data: map[string]string{}}
}

// ErrFenced is what a client sees when fencing storage rejects its write.
var ErrFenced = errors.New("storage: write rejected by fencing storage")

var _ sim.Handler = (*Storage)(nil)

// errERR is the answer of a request the storage cannot read.
var errERR = sim.Answer{Type: sim.AnswerError, Gist: "ERR"}

// Serve runs one WRITE.
func (s *Storage) Serve(r sim.ServiceRequest) sim.Outcome {
	a := r.Args
	if len(a) != 3 && len(a) != 5 || !strings.EqualFold(a[0], "WRITE") || len(a) == 5 && !strings.EqualFold(a[3], "TOKEN") {
		return sim.Outcome{Reply: "(error) ERR usage: WRITE key value [TOKEN n]", Answer: errERR, Err: fmt.Errorf("storage: bad storage request %q", a)}
	}
	key, value := a[1], a[2]
	token, has := int64(0), len(a) == 5
	if has {
		n, err := strconv.ParseInt(a[4], 10, 64)
		if err != nil {
			return sim.Outcome{Reply: "(error) ERR bad token " + a[4], Answer: errERR, Err: fmt.Errorf("storage: bad fencing token %q", a[4])}
		}
		token = n
	}
	top, seen := s.highest[key]
	if s.fencing {
		switch {
		case !has:
			return s.reject(key, "a write without a token", &fact.Fact{Key: fact.RejectedNoToken, Highest: top})
		case seen && token < top:
			return s.reject(key, fmt.Sprintf("token %d is older than token %d", token, top), &fact.Fact{Key: fact.RejectedOlder, Token: token, Highest: top})
		}
	}
	s.data[key] = value
	said := fact.New(fact.PlainStorage)
	if s.fencing {
		said = &fact.Fact{Key: fact.TokenAccepted, Token: token, Highest: top}
		if !seen {
			said = &fact.Fact{Key: fact.FirstToken, Token: token}
		}
	}
	if has && (!seen || token > top) {
		s.highest[key] = token
	}
	return sim.Outcome{Reply: "OK", Answer: sim.Answer{Type: sim.AnswerOK}, Keys: []sim.KeyState{s.state(key)}, Fact: said}
}

// reject refuses a write: the reply says why as Redis-like errors do, the
// fact says it for the log.
func (s *Storage) reject(key, why string, said *fact.Fact) sim.Outcome {
	return sim.Outcome{Reply: "(error) FENCED " + why, Answer: sim.Answer{Type: sim.AnswerError, Gist: "FENCED"}, Err: ErrFenced, Keys: []sim.KeyState{s.state(key)}, Fact: said}
}

// state shows a key: its value and, for fencing storage, the highest token.
func (s *Storage) state(key string) sim.KeyState {
	v, ok := s.data[key]
	if !ok {
		return sim.KeyState{Key: key, TTL: -2}
	}
	if s.fencing {
		v += fmt.Sprintf(" (highest token %d)", s.highest[key])
	}
	return sim.KeyState{Key: key, Type: "string", Value: v, TTL: -1}
}

// Close does nothing: the storage lives in memory.
func (s *Storage) Close() error { return nil }
