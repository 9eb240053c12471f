package reference

import (
	"strconv"
	"strings"

	"github.com/lockstep/lockstep/internal/sim"
)

// threadID names one thread of one incarnation of one client: a restarted
// client's threads are new threads even when their names repeat.
type threadID struct {
	client string
	inc    int
	name   string
}

// holder is a thread holding a key, with the event at which it came to
// hold it.
type holder struct {
	t     threadID
	since int
	req   int // the request whose exec gave it the key (on a replica, the master's)
	extra int // holds beyond the first: a thread that re-entered a hash lock leaves it only when its count is back
}

// key is what the model knows of one key on one node.
type key struct {
	state   sim.KeyState // the latest state an event showed
	holders []holder     // in the order they came to hold it
}

func (k *key) holds(t threadID) bool {
	for _, h := range k.holders {
		if h.t == t {
			return true
		}
	}
	return false
}

// node is one node (a Redis node, or a service lane such as storage or db).
type node struct {
	keys         map[string]*key
	down         bool // crashed (node-crash), or killed by a failover
	outOfService bool // taken out of service by a failover
	// history of every state a key took on this node, for a replica that
	// looks up the write it is applying.
	history map[string][]written
	stock   version // the stock's version this node holds (id 0: none)
	stocks  []version
	// latest is the version a write here overwrites: the one it holds, or,
	// once a failover promoted it, its old master's latest until its next
	// write (handedAt: that failover).
	latest   version
	handedAt int
}

// written is one state a key took on a node, and who held it then.
type written struct {
	state   sim.KeyState
	holders []holder
}

// version is one version of the stock: the event that wrote it (an init
// or an executed SET) and its value.
type version struct {
	id    int
	value string
}

// client is one client process.
type client struct {
	inc     int   // crash faults seen so far
	crashed bool  // crashed, not restarted since
	crashes []int // seqs of its crash faults
}

// thread is one thread of one incarnation.
type thread struct {
	believe   map[string]int // resource -> depth of acquired minus released
	inside    map[string]int // resource -> seq of the enter mark (absent: outside)
	reenter   map[string]int // resource -> seq of its latest reenter mark
	released  map[string]int // resource -> seq of its latest released mark
	relFailed map[string]int // resource -> seq of its latest release-failed mark
	acquired  map[string][]int
	gaveUp    map[string][]int
	gotKey    []int // execs of its that made it a holder of a lock key
	tries     []try // execs of its that made it a holder of a lock key or were refused one
	done      int   // seq of its done event, 0 while running
	failed    bool  // ended with an error (a done with a note)
	lastRead  *read
	// execs on each node/key, in order: whether each changed the key.
	attempts map[string][]attempt
	refused  []refusal
	// read is what its latest GET of each node/key showed.
	read map[string]sim.KeyState
}

// try is an exec by which a thread came to hold a lock key or found one
// held by others: a try to take a lock.
type try struct {
	seq int
	t   int64 // virtual time, ns
}

type attempt struct {
	seq     int
	changed bool
	write   bool // a command that can write
}

// refusal is a refused attempt: after the exec the lock key exists and is
// held, by no thread of the attempt's client and incarnation.
type refusal struct {
	seq  int
	t    int64 // virtual time, ns
	node string
	key  string
}

// read is an exec of GET stock: the version it saw.
type read struct {
	seq int
	ver version
}

// write is an executed SET of the stock.
type write struct {
	seq    int
	value  string
	from   *read   // the same thread's latest read, if any
	latest version // the node's latest version when it executed
	handed int     // the failover that handed the node that version, if one did
}

// readOnly are the commands that never write a key.
var readOnly = map[string]bool{
	"GET": true, "EXISTS": true, "TTL": true, "PTTL": true, "HGET": true, "HEXISTS": true,
	"WATCH": true, "UNWATCH": true, "WAIT": true, "MGET": true, "HGETALL": true, "HLEN": true,
	"TYPE": true, "STRLEN": true, "PING": true, "SELECT": true, "ECHO": true, "HELLO": true,
}

// writes reports whether an exec's command can write.
func writes(cmd []string) bool {
	if len(cmd) == 0 {
		return false
	}
	word := strings.ToUpper(strings.Fields(cmd[0] + " x")[0])
	return !readOnly[word]
}

// resourceOf is the resource a key stands for: the key itself, or R for
// the SQL lock row locks[R].
func resourceOf(k string) string {
	if strings.HasPrefix(k, "locks[") && strings.HasSuffix(k, "]") {
		return k[len("locks[") : len(k)-1]
	}
	return k
}

// hashFields reads a hash's "f=v f=v" text into a map.
func hashFields(v string) map[string]string {
	m := map[string]string{}
	for _, p := range strings.Fields(v) {
		f, val, _ := strings.Cut(p, "=")
		m[f] = val
	}
	return m
}

// hashChange compares two states of a hash: whether its fields differ,
// and, when they do not, whether a count went up or down.
func hashChange(before, after string) (fieldsChanged, up, down bool) {
	b, a := hashFields(before), hashFields(after)
	if len(a) != len(b) {
		return true, false, false
	}
	for f, av := range a {
		bv, ok := b[f]
		if !ok {
			return true, false, false
		}
		if av == bv {
			continue
		}
		an, err1 := strconv.ParseInt(av, 10, 64)
		bn, err2 := strconv.ParseInt(bv, 10, 64)
		switch {
		case err1 != nil || err2 != nil:
			return true, false, false
		case an > bn:
			up = true
		default:
			down = true
		}
	}
	return false, up, down
}

func sameValue(a, b sim.KeyState) bool { return a.Type == b.Type && a.Value == b.Value }
