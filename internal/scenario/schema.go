package scenario

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// JSONSchema describes the scenario file format as a JSON Schema (draft
// 2020-12) for editors, generated from the Go types so that it always
// matches what Parse accepts field by field. docs/scenario.schema.json is
// a copy, kept in step by a test. Checks that need the whole file (names
// declared, times within the horizon, algorithm parameters) are Parse's.
func JSONSchema() []byte {
	g := &schemaGen{defs: map[string]any{}}
	root := g.object(reflect.TypeFor[File]())
	root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	root["title"] = "Lockstep scenario file"
	root["description"] = "A list of races written as data. See docs/scenarios.md."
	root["$defs"] = g.defs
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(root); err != nil {
		panic(err) // only maps, slices, strings and numbers: cannot fail
	}
	return b.Bytes()
}

// schemaRequired are the fields a type must have, by type name.
var schemaRequired = map[string][]string{
	"File":     {"scenarios"},
	"Scenario": {"id", "title", "clients"},
	"Client":   {"name", "algorithm"},
	"Node":     {"name"},
	"Fault":    {"do"},
	"Action":   {"step", "do"},
	"Budget":   {"do"},

	"Lock":        {"name", "acquire", "release"},
	"LockCommand": {"run"},
}

// The descriptions that list a vocabulary are made from it: the fault kinds
// of sim.Actions by their target, the commands of Commands.
func init() {
	on := func(targets ...sim.Target) string {
		var out []string
		for _, a := range sim.Actions {
			if a.Fault && slices.Contains(targets, a.Target) {
				out = append(out, a.Do)
			}
		}
		return strings.Join(out, ", ")
	}
	schemaDocs["Fault.client"] = "The client it hits (" + on(sim.TargetClient) + "; a partition from one client only)."
	schemaDocs["Fault.node"] = "The node it hits (" + on(sim.TargetNode, sim.TargetLink) + "; drop-request and drop-reply from one node only)."
	schemaDocs["Match.cmd"] = "The command an event carries, any case: " + strings.Join(Commands, ", ") + "."
	schemaDocs["Match.name"] = "The name of a mark (" + strings.Join(AllMarks(), ", ") + ": each client writes its algorithm's and its task's), of a fault (" +
		strings.Join(faultNames(), ", ") + "), a verdict, a lost message (" + strings.Join(lostNames, ", ") + ") or an error (" + strings.Join(errorNames, ", ") + ")."
}

// schemaDocs describe fields, by type name and YAML key.
var schemaDocs = map[string]string{
	"Scenario.id":          "Unique id, used on the command line and in links: letters, digits and dashes.",
	"Scenario.title":       "Short title in English (required) and Chinese.",
	"Scenario.lesson":      "What the run teaches, in English and Chinese.",
	"Scenario.source":      "Where the race comes from, e.g. a seed document and section.",
	"Scenario.catalog":     "Rows of the lesson catalog this scenario shows.",
	"Scenario.seed":        "Random seed of the run (jitter, retry delays).",
	"Scenario.horizon":     "When the run ends, in virtual time. Default 30s, at most 10m.",
	"Scenario.nodes":       "Redis nodes. Default: one node named redis.",
	"Scenario.network":     "Latency, jitter and timeout of every client-node link.",
	"Scenario.data":        "String keys written to the first node before the run.",
	"Scenario.clients":     "The client processes, each running a lock algorithm around a task.",
	"Scenario.faults":      "Faults applied at a time (at) or when an event happens (on).",
	"Scenario.narration":   "Sentences shown at moments of the run.",
	"Scenario.expect":      "The verdicts the checker must end with; [safe] when nothing goes wrong. visualizer test needs it; run, compare and the page ask the checker.",
	"Scenario.schedule":    "Recorded user actions (manual steps, injected faults), replayed by engine step.",
	"Node.replica_of":      "The master this node replicates.",
	"Node.lag":             "Replication delay.",
	"Node.clock_offset":    "How far this node's clock is from the world's (may be negative).",
	"Network.latency":      "One-way latency. Default 1ms.",
	"Network.jitter":       "Extra random delay in [0, jitter).",
	"Network.timeout":      "Client read timeout. Default 1s.",
	"Client.name":          "Unique client name, e.g. A.",
	"Client.algorithm":     "Algorithm id from the catalog (docs/scenarios.md lists them), or the name of one of the scenario's own locks.",
	"Scenario.locks":       "Locks of the scenario's own, which clients name as their algorithm: acquire, release and extend as commands or Lua, with placeholders $key, $token, $ttl, $ttl_s and $name of its params.",
	"Lock.name":            "The name clients give as their algorithm; not a catalog algorithm's.",
	"Lock.source":          "Where the lock comes from: an issue thread, a file.",
	"Lock.key":             "The lock key, $key. Default lock; a client's params may set key.",
	"Lock.ttl":             "The lease: $ttl in milliseconds, $ttl_s in whole seconds. Default 1s; a client's params may set ttl.",
	"Lock.retry":           "The wait between acquire attempts. Default 100ms; a client's params may set retry.",
	"Lock.retry_jitter":    "A random extra wait in [0, retry_jitter) between attempts.",
	"Lock.acquire_timeout": "Give up acquiring after this long. Default: never.",
	"Lock.params":          "The lock's own parameters and their defaults, each written $name in its steps; a client's params may set them.",
	"Lock.acquire":         "Run until it succeeds (then the client holds the lock), waiting retry between attempts.",
	"Lock.release":         "Run once when the client leaves; a reply other than the declared one means the lock was no longer the client's.",
	"Lock.extend":          "Run every `every` (default ttl/3) on a thread of its own while the lock is held.",
	"Lock.fencing":         "A command run after each acquire whose integer reply is the lease's fencing token, e.g. [INCR, $key:token].",
	"LockStep.commands":    "Commands sent one after another; a command with ok: stops the step, failed, on any other reply.",
	"LockStep.lua":         "A Lua script, run with EVALSHA (EVAL when the node lacks it), with KEYS from keys and ARGV from args.",
	"LockStep.keys":        "The script's KEYS.",
	"LockStep.args":        "The script's ARGV.",
	"LockStep.ok":          "The script's reply that means success: an integer, a string, or nil for the nil reply. Default: any reply but an error.",
	"LockStep.every":       "The extend's period. Default ttl/3.",
	"LockCommand.run":      "The command and its arguments, e.g. [SET, $key, $token, NX, PX, $ttl].",
	"LockCommand.ok":       "The reply without which the step stops and fails: OK, an integer, a string, $token, or nil.",
	"Client.params":        "Algorithm parameters, e.g. {ttl: 3s, retry: 500ms}.",
	"Client.start":         "When the client starts.",
	"Client.requests":      "How many times it takes the lock and runs its task. Default 1.",
	"Client.work":          "Time spent inside the critical section.",
	"Client.task":          "The work inside the critical section: deduct (default), write or none.",
	"Client.clock_skew":    "How far ahead the client's clock runs (may be negative).",
	"Client.latency":       "Overrides the network latency for this client.",
	"Client.threads":       "Worker pool size; each request runs on a pooled thread.",
	"Client.reentry":       "How many nested times each request locks. Default 1.",
	"Client.keep_lock":     "A request returns without releasing the lock.",
	"Fault.at":             "Virtual time at which the fault happens.",
	"Fault.on":             "The event on which the fault happens.",
	"Fault.do":             "The fault, from the fault menu.",
	"Fault.for":            "How long: pause length, partition length, restart delay after a crash.",
	"Fault.by":             "How far: clock jump or skew (may be negative).",
	"Fault.keep_data":      "A restarted node keeps its keys (persistence).",
	"Match.kind":           "Event kind.",
	"Match.key":            "A key the event touches.",
	"Match.nth":            "Fire on the nth matching event (1-based). Default 1.",
	"Narration.at":         "Virtual time at which the sentence is shown.",
	"Narration.on":         "The event the sentence is attached to.",
	"Narration.claim":      "What the sentence says about the run at its moment; it is not said when the claim is false.",
	"Claim.inside":         "Clients inside their critical sections at that moment.",
	"Claim.outside":        "Clients not inside their critical sections at that moment.",
	"Claim.holds":          "Keys that hold a client's lock value at that moment.",
	"Claim.free":           "Keys that do not exist at that moment.",
	"Claim.together":       "true: two clients have been inside together so far; false: never.",
	"KeyHold.client":       "The client whose lock value the key holds.",
	"KeyHold.node":         "The node. Default: the first node.",
	"KeyHold.key":          "The key. Default: lock.",
	"Scenario.explore":     "Fault budget and bounds of a schedule search (visualizer explore); runs ignore it.",
	"Explore.faults":       "The faults the search may place: kind, count and largest size.",
	"Explore.steps":        "Engine steps per schedule. Default 2000, at most 100000.",
	"Explore.horizon":      "Virtual time per schedule. Default the scenario's horizon.",
	"Explore.window":       "Moves due this close to the next one may go first. Default 0 (ties only).",
	"Budget.do":            "The fault kind.",
	"Budget.count":         "How many the search may place. Default 1.",
	"Budget.max":           "The longest pause or node crash, or the largest forward clock jump.",
	"Budget.client":        "Only this client.",
	"Budget.node":          "Only this node.",
	"Action.step":          "Engine step before which the action is taken.",
	"Action.do":            "step (a manual step of client) or a fault kind.",
	"Action.clients":       "A run of hand steps: the clients of consecutive manual steps from step, blank-separated (do: step, no client). Save run as YAML writes hand steps so.",
	"Text.en":              "English.",
	"Text.zh":              "Chinese.",
}

// schemaEnums fix the values of some string fields, by type name and key.
func schemaEnums() map[string][]string {
	var faults, actions []string
	for _, a := range sim.Actions {
		if a.Fault {
			faults = append(faults, a.Do)
		}
		actions = append(actions, a.Do)
	}
	kinds := make([]string, len(sim.Kinds))
	for i, k := range sim.Kinds {
		kinds[i] = string(k)
	}
	return map[string][]string{
		"Fault.do":    faults,
		"Action.do":   actions,
		"Match.kind":  kinds,
		"Client.task": Tasks,
		"Budget.do":   sim.SearchKinds,

		"Goal.verdict": sim.Verdicts, // challenge.go
	}
}

// schemaMaxItems and schemaMax are the limits, by type name and key.
var (
	schemaMaxItems = map[string]int{"File.scenarios": MaxScenarios, "Scenario.clients": MaxClients,
		"Scenario.nodes": MaxNodesPerScenario, "Scenario.faults": MaxFaults, "Scenario.locks": MaxLocks,
		"Scenario.narration": MaxNarration, "Scenario.schedule": MaxSchedule, "Explore.faults": MaxFaults}
	// schemaWords are the string fields, and lists of strings, that take
	// numbers as words (a command's arguments, a reply).
	schemaWords = map[string]bool{"LockCommand.run": true, "LockCommand.ok": true, "LockStep.ok": true,
		"LockStep.keys": true, "LockStep.args": true, "Lock.fencing": true}
	schemaMax = map[string]int{"Client.requests": MaxRequests, "Client.threads": MaxThreads, "Explore.steps": MaxSteps}
)

type schemaGen struct {
	defs map[string]any
}

// durationSchema accepts what parseDuration does: Go durations or 0.
var durationSchema = map[string]any{
	"description": "A duration such as 3s, 150ms, 1m or 0.",
	"anyOf": []any{
		map[string]any{"type": "string", "pattern": `^[-+]?(0|([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$`},
		map[string]any{"const": 0},
	},
}

// object describes a struct type: its fields, inline ones flattened.
func (g *schemaGen) object(t reflect.Type) map[string]any {
	props := map[string]any{}
	enums := schemaEnums()
	for _, f := range fieldsOf(t) {
		ft := t.FieldByIndex(f.index).Type
		key := t.Name() + "." + f.name
		s := g.of(ft)
		if doc := schemaDocs[key]; doc != "" {
			s = withKey(s, "description", doc)
		}
		if e, ok := enums[key]; ok {
			s = withKey(s, "enum", e)
		}
		if n, ok := schemaMaxItems[key]; ok {
			s = withKey(s, "maxItems", n)
		}
		if n, ok := schemaMax[key]; ok {
			s = withKey(s, "maximum", n)
		}
		if key == "Scenario.expect" {
			s = withKey(s, "items", map[string]any{"enum": sim.Verdicts})
			s = withKey(s, "minItems", 1)
		}
		if key == "Scenario.clients" {
			s = withKey(s, "minItems", 1)
		}
		if schemaWords[key] {
			// a reply or an argument: YAML reads 1 as a number, the
			// decoder as the word "1"
			if s["type"] == "array" {
				s = withKey(s, "items", map[string]any{"type": []string{"string", "number"}})
			} else {
				s = withKey(s, "type", []string{"string", "number"})
			}
		}
		props[f.name] = s
	}
	out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	var req []string
	for _, r := range schemaRequired[t.Name()] {
		if _, ok := props[r]; ok {
			req = append(req, r)
		}
	}
	if len(req) > 0 {
		out["required"] = req
	}
	if t.Name() == "Fault" || t.Name() == "Action" {
		out["allOf"] = actionRules(t.Name() == "Action")
	}
	return out
}

// actionRules are, for each row of sim.Actions (faults only, unless
// inSchedule), what a fault or schedule entry of that kind must have: its
// target and its required amount ("if do is pause, then for").
func actionRules(inSchedule bool) []any {
	var out []any
	for _, a := range sim.Actions {
		if !a.Fault && !inSchedule {
			continue
		}
		var req []string
		if a.NeedsClient() {
			req = append(req, "client")
		}
		if a.NeedsNode() {
			req = append(req, "node")
		}
		if a.Required {
			req = append(req, a.Amount.Field())
		}
		if len(req) == 0 {
			continue
		}
		out = append(out, map[string]any{
			"if":   map[string]any{"properties": map[string]any{"do": map[string]any{"const": a.Do}}, "required": []string{"do"}},
			"then": map[string]any{"required": req},
		})
	}
	return out
}

// withKey copies a schema (a $ref stays a $ref beside the new key).
func withKey(s map[string]any, k string, v any) map[string]any {
	out := make(map[string]any, len(s)+1)
	for kk, vv := range s {
		out[kk] = vv
	}
	out[k] = v
	return out
}

// of describes any type of the schema.
func (g *schemaGen) of(t reflect.Type) map[string]any {
	if t == durationType {
		g.defs["Duration"] = durationSchema
		return map[string]any{"$ref": "#/$defs/Duration"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.of(t.Elem())
	case reflect.Struct:
		name := t.Name()
		if _, ok := g.defs[name]; !ok {
			g.defs[name] = true // placeholder against recursion
			g.defs[name] = g.object(t)
		}
		return map[string]any{"$ref": "#/$defs/" + name}
	case reflect.Slice:
		return map[string]any{"type": "array", "items": g.of(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.of(t.Elem())}
	case reflect.Interface:
		return map[string]any{"type": []string{"string", "number", "boolean"}}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	}
	return map[string]any{}
}
