package lesson

import (
	"testing"
	"time"

	"github.com/lockstep/lockstep/internal/scenario"
	"github.com/lockstep/lockstep/internal/sim"
)

const masterAndReplica = `
scenarios:
  - id: master-and-replica
    title: {en: "A master with a replica, for every fault kind"}
    horizon: 10s
    nodes:
      - {name: master}
      - {name: replica, replica_of: master, lag: 500ms}
    clients:
      - {name: A, algorithm: replica-failover, params: {ttl: 10s, retry: 200ms}, work: 2s}
`

// The view says a node is down exactly when the engine has it down: the
// key fold reads down and up from the fault events by kind (keyFold.add),
// so a kind that takes a node down or brings one back needs its case
// there. Every fault kind is applied to client A and node master, with
// the node up and with it down (a kind the engine refuses there is
// skipped); the engine's own state is then probed with a node-restart,
// which it accepts only on a node that is down.
func TestNodeDownInTheViewIsTheEngines(t *testing.T) {
	f, err := scenario.Parse("nodes.yaml", []byte(masterAndReplica))
	if err != nil {
		t.Fatal(err)
	}
	sc := &f.Scenarios[0]
	applied := map[sim.FaultKind]bool{}
	for _, k := range sim.FaultKinds {
		for _, startDown := range []bool{false, true} {
			a, _ := k.Spec()
			s, err := NewSession(sc, cfg(1))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			if startDown {
				if err := s.Inject(scenario.Fault{Do: string(sim.FaultNodeCrash), Node: "master"}); err != nil {
					t.Fatal(err)
				}
			}
			if k == sim.FaultRestart {
				if err := s.Inject(scenario.Fault{Do: string(sim.FaultCrash), Client: "A"}); err != nil {
					t.Fatal(err)
				}
			}
			fl := scenario.Fault{Do: string(k)}
			if a.Target != sim.TargetNode {
				fl.Client = "A"
			}
			if a.Target != sim.TargetClient {
				fl.Node = "master"
			}
			if a.Amount != sim.AmountNone {
				*fl.Size() = scenario.Duration(max(a.Default, time.Second))
			}
			if err := s.Inject(fl); err != nil {
				s.Close()
				continue // refused here: nothing to compare
			}
			applied[k] = true
			view := map[string]bool{}
			for _, n := range s.View().Nodes {
				view[n.Name] = n.Down
			}
			for _, n := range []string{"master", "replica"} {
				engine := s.Inject(scenario.Fault{Do: string(sim.FaultNodeRestart), Node: n}) == nil
				if view[n] != engine {
					t.Errorf("%s (node master down before: %v): the engine has %s down %v, the view %v: give the kind its case in keyFold.add",
						k, startDown, n, engine, view[n])
				}
			}
			s.Close()
		}
	}
	for _, k := range sim.FaultKinds {
		if !applied[k] {
			t.Errorf("%s: never applied, so not checked", k)
		}
	}
}
