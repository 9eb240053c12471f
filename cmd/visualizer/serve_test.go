package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer that the server's goroutines may write to
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serve listens on the address it is given, says where on stdout, serves
// the page (the embedded one) and, when its context ends (as on Ctrl-C),
// closes and returns: status 0.
func TestServeServesThePageUntilStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rd, wr := io.Pipe()
	var errOut lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "127.0.0.1:0"}, testEnv, wr, &errOut)
		wr.Close()
	}()
	out := bufio.NewReader(rd)
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatalf("serve printed %q before %v; stderr:\n%s", line, err, errOut.String())
	}
	go io.Copy(io.Discard, out) //nolint:errcheck // whatever else it prints
	m := regexp.MustCompile(`^Lockstep on (http://127\.0\.0\.1:\d+) \(embedded Redis\)\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("serve's first line = %q, want Lockstep on http://127.0.0.1:PORT (embedded Redis)", line)
	}
	res, err := http.Get(m[1] + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "<title>Lockstep") {
		t.Errorf("GET / = %d, want 200 and the page:\n%.300s", res.StatusCode, body)
	}

	cancel()
	select {
	case err := <-done:
		if code := exitCode(err, &errOut); code != 0 {
			t.Errorf("serve stopped with status %d (%v), want 0; stderr:\n%s", code, err, errOut.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not return within 15s of its context ending")
	}
	if _, err := http.Get(m[1] + "/"); err == nil {
		t.Errorf("the server still answers after serve returned")
	}
}

// serve's failures, each before it serves anything: a --dev directory
// without the page, a Redis URL it refuses, a scenario file that is not
// there, an address already taken. Status 1 and a line that says why.
func TestServeErrors(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	noPage := t.TempDir()
	for args, want := range map[string]string{
		"serve --dev --web " + noPage:                  "visualizer: --dev: ",
		"serve --redis ftp://127.0.0.1:6379":           "scheme must be redis://",
		"serve --file missing.yaml --addr 127.0.0.1:0": "missing.yaml",
		"serve --addr " + taken.Addr().String():        "address already in use",
	} {
		r := visualizer(t, strings.Fields(args)...)
		r.expect(t, args, 1, want)
		if r.stdout != "" {
			t.Errorf("visualizer %s printed on stdout: %q", args, r.stdout)
		}
	}
}
