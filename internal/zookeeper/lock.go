package zookeeper

import (
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
		if ev := <-ch; ev.Err != nil {
			return ev.Err
		}
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
func (m *Mutex) create() (string, error) {
	prefix := m.path + "/lock-"
	var err error
	for range 3 {
		var node string
		if m.protected {
			node, err = m.c.CreateProtectedEphemeralSequential(prefix, nil, m.acl)
		} else {
			node, err = m.c.Create(prefix, nil, zk.FlagEphemeral|zk.FlagSequence, m.acl)
		}
		switch {
		case err == nil:
			if m.Created != nil {
				m.Created(node)
			}
			return node, nil
		case errors.Is(err, zk.ErrConnectionClosed):
			// The connection broke before the reply came: the client
			// tries again, as lock code does. A protected create finds
			// the node it made (its GUID is in the name); an unprotected
			// one makes a second, and the first stays, an orphan, for as
			// long as the session lives (ZOOKEEPER-1262).
			continue
		case !errors.Is(err, zk.ErrNoNode):
			return "", err
		}
		if err = m.makePath(); err != nil {
			return "", err
		}
	}
	return "", err
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
