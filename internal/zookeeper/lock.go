package zookeeper

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-zookeeper/zk"
)

// Mutex is ZooKeeper's lock recipe as github.com/go-zookeeper/zk's Lock
// writes it (lock.go: an ephemeral sequential node under the lock's path;
// the lowest holds; each waiter watches only the node just below its own),
// with what the lessons need in view: the holder's fencing token, its
// node's creation zxid (Kleppmann: ZooKeeper's zxid as the token), and a
// choice of unprotected nodes, to show the ZOOKEEPER-1262 orphan that
// protected nodes exist to prevent. zk.NewLock itself runs unmodified
// beside it; it keeps the sequence number to itself.
type Mutex struct {
	c         *zk.Conn
	path      string
	acl       []zk.ACL
	protected bool

	// Node is the lock node this holder created ("" when not locked),
	// Seq its sequence number and Token its creation zxid.
	Node  string
	Seq   int
	Token int64

	// Created, if set, is told of each node this client's create made, as
	// soon as its reply comes (before the client knows whether it holds).
	Created func(node string)
	// Watching, if set, is told of the node this waiter watches (the one
	// just below its own) as it sets the watch, and Woken of that node
	// when the watch fires: each waiter is woken by its predecessor alone.
	Watching, Woken func(node string)
}

// ErrLocked is returned by Lock when this Mutex already holds the lock.
var ErrLocked = errors.New("zookeeper: trying to acquire a lock twice")

// ErrNotLocked is returned by Unlock when this Mutex does not hold it.
var ErrNotLocked = errors.New("zookeeper: not locked")

// NewMutex is the recipe on the lock's path (a node used only by this
// lock). Protected nodes carry a GUID in their name, so that a create whose
// reply was lost is found again rather than made twice.
func NewMutex(c *zk.Conn, path string, protected bool) *Mutex {
	return &Mutex{c: c, path: path, acl: zk.WorldACL(zk.PermAll), protected: protected}
}

// seqOf reads a lock node's sequence number: the digits after "lock-".
func seqOf(node string) (int, error) {
	i := strings.LastIndex(node, "lock-")
	if i < 0 {
		return 0, fmt.Errorf("zookeeper: %q is not a lock node", node)
	}
	return strconv.Atoi(node[i+len("lock-"):])
}

// Lock waits until this client holds the lock: its node is the lowest
// under the path. It watches only its predecessor, so a release wakes one
// waiter, not the herd.
func (m *Mutex) Lock() error {
	if m.Node != "" {
		return ErrLocked
	}
	node, err := m.create()
	if err != nil {
		return err
	}
	seq, err := seqOf(node)
	if err != nil {
		return err
	}
	for {
		children, _, err := m.c.Children(m.path)
		if err != nil {
			return err
		}
		prev, prevSeq := "", -1
		lowest := true
		for _, ch := range children {
			s, err := seqOf(ch)
			if err != nil {
				return err
			}
			if s < seq {
				lowest = false
				if s > prevSeq {
					prev, prevSeq = ch, s
				}
			}
		}
		if lowest {
			break
		}
		// Wait on the node next in line for the lock.
		_, _, ch, err := m.c.GetW(m.path + "/" + prev)
		if errors.Is(err, zk.ErrNoNode) {
			continue
		}
		if err != nil {
			return err
		}
		m.tell(m.Watching, prev)
		ev := <-ch
		if ev.Err != nil {
			return ev.Err
		}
		m.tell(m.Woken, prev)
	}
	ok, stat, err := m.c.Exists(node)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("zookeeper: the lock node %s is gone: the session expired", node)
	}
	m.Node, m.Seq, m.Token = node, seq, stat.Czxid
	return nil
}

// create makes this client's node, and the lock's path when it is missing.
// A create whose connection broke before its reply came is tried again, as
// lock code does. Unprotected, the retry makes a second node and the first
// stays, an orphan, for as long as the session lives (ZOOKEEPER-1262).
// Protected, the node's name carries a GUID kept across retries (as
// Curator's protected mode keeps it), and each retry first looks for the
// node an earlier try may have made.
func (m *Mutex) create() (string, error) {
	name, guid := m.path+"/lock-", ""
	if m.protected {
		guid = newGUID()
		name = m.path + "/_c_" + guid + "-lock-"
	}
	var err error
	maybeMade := false
	for range 6 {
		if maybeMade && guid != "" {
			var node string
			if node, err = m.find(guid); err == nil && node != "" {
				return m.made(node), nil
			}
			if err != nil && !reconnecting(err) {
				return "", err
			}
			if err != nil {
				continue
			}
		}
		var node string
		node, err = m.c.Create(name, nil, zk.FlagEphemeral|zk.FlagSequence, m.acl)
		switch {
		case err == nil:
			return m.made(node), nil
		case errors.Is(err, zk.ErrConnectionClosed):
			maybeMade = true // the request may have reached the server
		case reconnecting(err):
			// never sent: the client is between connections
		case errors.Is(err, zk.ErrNoNode):
			if err = m.makePath(); err != nil && !reconnecting(err) {
				return "", err
			}
		default:
			return "", err
		}
	}
	return "", err
}

// reconnecting reports whether err says only that the client was between
// connections: go-zookeeper fails requests it had not sent yet with
// ErrNoServer each time it starts over its server list (with one server,
// on every reconnection), and those sent with ErrConnectionClosed.
func reconnecting(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer)
}

// find looks for this client's protected node, by its GUID ("" when the
// server has none).
func (m *Mutex) find(guid string) (string, error) {
	children, _, err := m.c.Children(m.path)
	if err != nil {
		return "", err
	}
	for _, ch := range children {
		if strings.HasPrefix(ch, "_c_"+guid+"-") {
			return m.path + "/" + ch, nil
		}
	}
	return "", nil
}

// made tells Created of a node this client's create made.
func (m *Mutex) made(node string) string {
	if m.Created != nil {
		m.Created(node)
	}
	return node
}

// tell tells f, if set, of the lock node named node.
func (m *Mutex) tell(f func(string), node string) {
	if f != nil {
		f(m.path + "/" + node)
	}
}

// newGUID is 32 random hex digits, as go-zookeeper's protected nodes carry.
func newGUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b[:])
}

// makePath creates the lock's path, node by node.
func (m *Mutex) makePath() error {
	p := ""
	for _, part := range strings.Split(strings.Trim(m.path, "/"), "/") {
		p += "/" + part
		if _, err := m.c.Create(p, nil, 0, m.acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return err
		}
	}
	return nil
}

// Unlock deletes this client's node. After its session expired the node is
// gone already, and Unlock fails with zk.ErrNoNode ("node does not exist").
func (m *Mutex) Unlock() error {
	if m.Node == "" {
		return ErrNotLocked
	}
	err := m.c.Delete(m.Node, -1)
	m.Node, m.Seq, m.Token = "", 0, 0
	return err
}
