package scenario

import (
	"go.yaml.in/yaml/v4"
	"maps"
	"slices"
	"time"
)

// The values a scenario's fields stand for when a file leaves them out.
// The parser's checks, the engine's world and every builder of a scenario
// in code read them from here (WithDefaults), so that a scenario a
// program builds means what the same scenario written in a file means.
const (
	DefaultNode     = "redis"          // the one node of a scenario that lists none
	DefaultLatency  = time.Millisecond // one way, every client-node link
	DefaultTimeout  = time.Second      // how long a client waits for a reply
	DefaultRequests = 1                // requests each client makes
)

// WithDefaults gives a copy of s with the default of every field it
// leaves zero written in: its horizon (DefaultHorizon), its one node
// (DefaultNode), the network's latency and timeout, each client's
// requests, and each declared lock's key, ttl and retry. The copy shares
// nothing that s can change through it (lists and maps are cloned one
// level deep). A run of the copy is the run of s, event for event
// (TestDefaultsAreTheEngines).
func WithDefaults(s *Scenario) *Scenario {
	out := *s
	if out.Horizon <= 0 {
		out.Horizon = Duration(DefaultHorizon)
	}
	out.Nodes = slices.Clone(s.Nodes)
	if len(out.Nodes) == 0 {
		out.Nodes = []Node{{Name: DefaultNode}}
	}
	if out.Network.Latency <= 0 {
		out.Network.Latency = Duration(DefaultLatency)
	}
	if out.Network.Timeout <= 0 {
		out.Network.Timeout = Duration(DefaultTimeout)
	}
	out.Data = maps.Clone(s.Data)
	out.Clients = slices.Clone(s.Clients)
	for i := range out.Clients {
		c := &out.Clients[i]
		if c.Requests <= 0 {
			c.Requests = DefaultRequests
		}
		c.Params = maps.Clone(c.Params)
	}
	out.Locks = slices.Clone(s.Locks)
	for i := range out.Locks {
		l := &out.Locks[i]
		if l.Key == "" {
			l.Key = DefaultLockKey
		}
		if l.TTL <= 0 {
			l.TTL = Duration(DefaultLockTTL)
		}
		if l.Retry <= 0 {
			l.Retry = Duration(DefaultLockRetry)
		}
	}
	out.Faults = slices.Clone(s.Faults)
	out.Schedule = slices.Clone(s.Schedule)
	out.Expect = slices.Clone(s.Expect)
	return &out
}

// NodeNames gives the names of the scenario's nodes, DefaultNode when it
// lists none.
func (s *Scenario) NodeNames() []string {
	var out []string
	for _, n := range WithDefaults(&Scenario{Nodes: s.Nodes}).Nodes {
		out = append(out, n.Name)
	}
	return out
}

// HorizonOrDefault is the scenario's horizon, DefaultHorizon when it sets
// none.
func (s *Scenario) HorizonOrDefault() time.Duration {
	if s.Horizon > 0 {
		return s.Horizon.D()
	}
	return DefaultHorizon
}

// FormatDuration writes a duration as a scenario file does: in its
// shortest exact form (10m, 3s, 2500ms).
func FormatDuration(d time.Duration) string { return fmtDuration(d) }

// Validate checks a scenario built in code by the rules Parse holds a
// file's to, naming each problem by its path (clients[0].algorithm)
// instead of a line: what a builder runs before it hands the scenario on.
func Validate(s *Scenario) error {
	d := &decoder{r: &report{file: s.ID}, vals: map[string]*yaml.Node{}, keys: map[string]*yaml.Node{}, bad: map[string]bool{}}
	c := &validator{d: d, flat: true}
	c.scenario(s, "scenario")
	if errs := d.r.capped(); len(errs) > 0 {
		return Errors(errs)
	}
	return nil
}
