package sim

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// timeoutError is what a client sees when its reply does not come: a
// net.Error whose Timeout is true, as a real read deadline gives.
type timeoutError struct{ node string }

// refusedError is what a client sees when its node is down.
type refusedError struct{ node string }

// clientOptions makes go-redis send nothing behind the scheduler's back: no
// retries, no handshake, no background dials, no deadlines in real time.
func clientOptions(dial func(ctx context.Context, network, addr string) (net.Conn, error)) *redis.Options {
	return &redis.Options{
		Addr:            "sim",
		Dialer:          dial,
		Protocol:        2,
		DisableIdentity: true,
		MaxRetries:      -1,
		DialerRetries:   1,
		MinIdleConns:    0,
		ConnMaxIdleTime: -1,
		ReadTimeout:     -1,
		WriteTimeout:    -1,
		DialTimeout:     time.Hour,
		PoolTimeout:     time.Hour,
		PoolSize:        4,
		// Commands and replies are small: go-redis' 32 KiB buffers would
		// make each connection hold 64 KiB, half of a session's memory,
		// and every world a seek rebuilds allocates them again. A larger
		// command or reply passes in several reads or writes.
		ReadBufferSize:           1 << 10,
		WriteBufferSize:          1 << 10,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

// newClient makes a process's go-redis client for one node, with the hook
// that turns each command into scheduled events.
func (w *World) newClient(p *Proc, n *Node) *redis.Client {
	t := &tap{}
	c := redis.NewClient(clientOptions(func(ctx context.Context, _, _ string) (net.Conn, error) {
		conn, err := w.dialNode(n)
		if err != nil {
			return nil, err
		}
		return tapConn{Conn: conn, tap: t}, nil
	}))
	c.AddHook(&hook{w: w, p: p, n: n, tap: t})
	return c
}

// hook routes every command of one client-node connection through the world.
type hook struct {
	w   *World
	p   *Proc
	n   *Node
	tap *tap
}

func (h *hook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if req := h.w.execing; req != nil {
			// go-redis opens a connection inside the scheduled command that
			// needs it and sends its handshake (HELLO) first: part of that
			// request, shown on its exec event.
			err := next(ctx, cmd)
			req.setup = append(req.setup, FormatCmd(h.w.cmdArgs(cmd)))
			h.tap.buf.Reset()
			return err
		}
		if err := ctx.Err(); err != nil {
			cmd.SetErr(err) // a done context sends nothing, as go-redis checks it first
			return err
		}
		err := h.w.roundTrip(ctx, h, cmd, next, nil, nil)
		if err != nil && cmd.Err() == nil {
			cmd.SetErr(err)
		}
		return err
	}
}

func (h *hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if err := ctx.Err(); err != nil {
			for _, c := range cmds {
				c.SetErr(err)
			}
			return err
		}
		err := h.w.roundTrip(ctx, h, nil, nil, cmds, next)
		if err != nil {
			for _, c := range cmds {
				if c.Err() == nil {
					c.SetErr(err)
				}
			}
		}
		return err
	}
}

// forRedis is the context go-redis runs a command with: ctx without a
// deadline on the world's clock, which go-redis would read as a deadline
// on the machine's (the world applies it: roundTrip), and without its
// cancellation, which the world checked when the command left.
func forRedis(ctx context.Context) context.Context {
	if ctx.Done() == nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

// cmdArgs gives a command's arguments as strings, its name in upper case.
func (w *World) cmdArgs(c redis.Cmder) []string {
	return w.appendArgs(make([]string, 0, len(c.Args())), c)
}

// appendArgs is cmdArgs appended to out.
func (w *World) appendArgs(out []string, c redis.Cmder) []string {
	first := len(out)
	for _, a := range c.Args() {
		switch v := a.(type) {
		case string:
			out = append(out, v)
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	if len(out) > first {
		out[first] = w.upper(out[first])
	}
	return out
}

// upper gives a command name in upper case, remembering the names clients
// send (go-redis sends them in lower case) so as to make each only once.
func (w *World) upper(name string) string {
	if u, ok := w.names[name]; ok {
		return u
	}
	u := strings.ToUpper(name)
	if w.names == nil {
		w.names = map[string]string{}
	}
	if len(w.names) < 256 {
		w.names[name] = u
	}
	return u
}
