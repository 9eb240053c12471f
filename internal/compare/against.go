package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
	"github.com/lockstep/lockstep/internal/lock"
	"github.com/lockstep/lockstep/internal/scenario"
)

// Against gives the scenario to compare sc with. with names an algorithm
// (every client of sc runs it, keeping the parameters it accepts) or, when
// no algorithm has that id, a scenario among others with the same clients;
// empty, sc's canonical partner (Partner).
func Against(sc *scenario.Scenario, with string, others []scenario.Scenario) (*scenario.Scenario, error) {
	if with == "" {
		p, ok := Partner(sc.ID)
		if !ok {
			return nil, fmt.Errorf("%w for %s: name an algorithm or a scenario with the same clients to compare it with", ErrNoPair, sc.ID)
		}
		with = p
	}
	if algo, ok := sc.Lookup(with); ok {
		return withAlgorithm(sc, algo)
	}
	for i := range others {
		if others[i].ID == with {
			o := &others[i]
			if err := sameClients(sc, o); err != nil {
				return nil, err
			}
			return o, nil
		}
	}
	return nil, fmt.Errorf("%w %q: give an algorithm (%s) or a scenario id with the same clients as %s",
		ErrUnknown, with, strings.Join(sc.AlgorithmIDs(), ", "), sc.ID)
}

// withAlgorithm is sc with every client running algo. A parameter algo does
// not take is dropped; the rest are checked as algo's own. A library row
// that names its lease otherwise (redsync's expiry) is given the client's
// lease and retry under its own names (carry).
func withAlgorithm(sc *scenario.Scenario, algo *lock.Info) (*scenario.Scenario, error) {
	out := *sc
	out.ID = sc.ID + "+" + algo.ID
	// The lock first: a side's name is cut at its end on a narrow screen.
	out.Title = fact.Say("compare.with-title", algo.ID, sc.Title)
	out.Clients = slices.Clone(sc.Clients)
	for i := range out.Clients {
		c := &out.Clients[i]
		c.Algorithm = algo.ID
		kept := map[string]any{}
		for k, v := range declaredParams(sc, sc.Clients[i]) {
			if _, ok := algo.Param(k); ok {
				kept[k] = v
			}
		}
		for k, v := range c.Params {
			if _, ok := algo.Param(k); ok {
				kept[k] = v
			}
		}
		if given, _, ok := carry(sc, sc.Clients[i], algo); ok {
			maps.Copy(kept, given)
		}
		c.Params = kept
		if _, err := algo.Decode(c.Params); err != nil {
			return nil, fmt.Errorf("compare: client %s with %s: %w", c.Name, algo.ID, err)
		}
	}
	return &out, nil
}

// declaredParams are the key, lease and retry that client c's lock
// declares, when it is one of the scenario's own (locks:), under the
// catalog's names: what the client's params leave to the lock, which a
// catalog lock put in its place must take too (nil for a catalog lock).
func declaredParams(sc *scenario.Scenario, c scenario.Client) map[string]any {
	l, own := sc.Own(c.Algorithm)
	if !own {
		return nil
	}
	sp := l.Spec()
	return map[string]any{"key": sp.Key, "ttl": sp.TTL.String(), "retry": sp.Retry.String()}
}

// carry gives the parameters under which algo, a lock with its own names
// for them (Info.CompareParams), takes the lease and the wait between tries
// of client c's lock: its ttl and retry, typed or its defaults (without a
// retry, the catalog's usual 100ms). from are the values of c's lock they
// stand for, by c's names. ok is false when c already runs algo, when algo
// takes its lease under the common names, or when c's lock has no lease.
func carry(sc *scenario.Scenario, c scenario.Client, algo *lock.Info) (given, from map[string]any, ok bool) {
	left, found := sc.Lookup(c.Algorithm)
	if algo.CompareParams == nil || !found || left.ID == algo.ID {
		return nil, nil, false
	}
	lease, ok := left.Duration(c.Params, "ttl")
	if !ok {
		return nil, nil, false
	}
	from = map[string]any{"ttl": lease}
	retry, ok := left.Duration(c.Params, "retry")
	if ok {
		from["retry"] = retry
	} else {
		retry = 100 * time.Millisecond
	}
	return algo.CompareParams(lease, retry), from, true
}

// sameClients checks that two scenarios name the same clients.
func sameClients(a, b *scenario.Scenario) error {
	na, nb := clientNames(a), clientNames(b)
	if !slices.Equal(na, nb) {
		return fmt.Errorf("%w: %s has clients %s, %s has %s", ErrClients, a.ID, strings.Join(na, ", "), b.ID, strings.Join(nb, ", "))
	}
	return nil
}

func clientNames(sc *scenario.Scenario) []string {
	out := make([]string, len(sc.Clients))
	for i, c := range sc.Clients {
		out[i] = c.Name
	}
	slices.Sort(out)
	return out
}
