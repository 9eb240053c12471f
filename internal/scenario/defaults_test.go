package scenario

import (
	"strings"
	"testing"
	"time"
)

// A file that leaves out its horizon, nodes, network and requests: what
// the parser holds it to must be what WithDefaults writes in.
const bare = `scenarios:
  - id: bare
    title: {en: bare}
    locks:
      - name: mine
        acquire: {commands: [{run: [SET, $key, $token, NX, PX, $ttl], ok: OK}]}
        release: {commands: [{run: [DEL, $key]}]}
    clients:
      - {name: A, algorithm: mine, start: START}
    faults:
      - {at: 1s, do: node-crash, node: NODE, for: 100ms}
    expect: [safe]
`

func bareFile(start, node string) string {
	return strings.NewReplacer("START", start, "NODE", node).Replace(bare)
}

// The parser's defaults and WithDefaults agree: the horizon the parser
// holds a start to is WithDefaults' horizon (a start just inside it is
// accepted, just past it refused), the node a fault may name is
// WithDefaults' one node, and the declared lock's key, ttl and retry are
// what its Spec runs with.
func TestParserDefaultsAreWithDefaults(t *testing.T) {
	f, err := Parse("bare.yaml", []byte(bareFile("1s", "redis")))
	if err != nil {
		t.Fatal(err)
	}
	d := WithDefaults(&f.Scenarios[0])
	h := d.Horizon.D()
	if h != DefaultHorizon {
		t.Errorf("WithDefaults' horizon %v, want %v", h, DefaultHorizon)
	}
	if _, err := Parse("bare.yaml", []byte(bareFile(FormatDuration(h), "redis"))); err != nil {
		t.Errorf("a start at the default horizon (%v) is refused: %v", h, err)
	}
	if _, err := Parse("bare.yaml", []byte(bareFile(FormatDuration(h+time.Millisecond), "redis"))); err == nil {
		t.Errorf("a start past the default horizon (%v) is accepted", h)
	}
	if len(d.Nodes) != 1 || d.Nodes[0].Name != DefaultNode {
		t.Fatalf("WithDefaults' nodes %+v, want one %s", d.Nodes, DefaultNode)
	}
	if _, err := Parse("bare.yaml", []byte(bareFile("1s", "elsewhere"))); err == nil {
		t.Error("a fault on a node the file does not have is accepted")
	}
	if d.Clients[0].Requests != DefaultRequests || d.Network.Latency.D() != DefaultLatency || d.Network.Timeout.D() != DefaultTimeout {
		t.Errorf("WithDefaults' requests %d, latency %v, timeout %v", d.Clients[0].Requests, d.Network.Latency.D(), d.Network.Timeout.D())
	}
	spec := f.Scenarios[0].Locks[0].Spec()
	l := d.Locks[0]
	if l.Key != spec.Key || l.TTL.D() != spec.TTL || l.Retry.D() != spec.Retry {
		t.Errorf("WithDefaults' lock %s/%v/%v, the Spec's %s/%v/%v", l.Key, l.TTL.D(), l.Retry.D(), spec.Key, spec.TTL, spec.Retry)
	}
	// The copy shares nothing the caller changes through it.
	d.Clients[0].Name, d.Nodes[0].Name = "Z", "z"
	if f.Scenarios[0].Clients[0].Name != "A" || len(f.Scenarios[0].Nodes) != 0 {
		t.Error("changing WithDefaults' copy changed the scenario")
	}
}

// Validate holds a scenario built in code to a file's rules, by path.
func TestValidateIsTheParsersRules(t *testing.T) {
	f, err := Parse("bare.yaml", []byte(bareFile("1s", "redis")))
	if err != nil {
		t.Fatal(err)
	}
	sc := f.Scenarios[0]
	if err := Validate(&sc); err != nil {
		t.Fatalf("a scenario the parser accepts is refused: %v", err)
	}
	sc.Clients = append([]Client(nil), sc.Clients...)
	sc.Clients[0].Start = Duration(DefaultHorizon + time.Second)
	sc.Clients[0].Algorithm = "no-such-lock"
	err = Validate(&sc)
	if err == nil || !strings.Contains(err.Error(), "after the horizon") || !strings.Contains(err.Error(), "no-such-lock") {
		t.Errorf("want the start after the horizon and the unknown algorithm, got %v", err)
	}
}
