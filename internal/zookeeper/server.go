package zookeeper

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lockstep/lockstep/internal/fact"
)

// The files a ZooKeeper server needs: Debian's default-jre-headless and
// libzookeeper-java (its jar names its dependencies in its manifest).
const (
	Jar     = "/usr/share/java/zookeeper.jar"
	mainCls = "org.apache.zookeeper.server.ZooKeeperServerMain"
)

// ErrNoJava is returned when Java or ZooKeeper's jars are missing; its
// words say what to install.
var ErrNoJava = errors.New("zookeeper: a ZooKeeper server needs Java and ZooKeeper's jars: apt-get install default-jre-headless libzookeeper-java")

// Install is ErrNoJava's advice in both languages, for the page and the
// lessons that need ZooKeeper.
var Install = fact.Say("zookeeper.install", installCommand)

// NeedsJava is the few words a list of lessons puts beside a ZooKeeper
// lesson on a machine without Java.
var NeedsJava = fact.Say("zookeeper.needs-java")

// ErrCannotPause is returned when a lesson that stops the server
// (Lesson.ServerPause) is asked to run on an external server: only a JVM
// this program started can be stopped and resumed.
var ErrCannotPause = errors.New("zookeeper: this lesson stops the server's JVM (SIGSTOP) and resumes it, which only a ZooKeeper started by Lockstep allows; an external --zookeeper server cannot be paused from here")

// CannotPause is ErrCannotPause's words in both languages.
var CannotPause = fact.Say("zookeeper.cannot-pause")

// NeedsStarted is the few words a list of lessons puts beside such a
// lesson when the ZooKeeper lessons run on an external server.
var NeedsStarted = fact.Say("zookeeper.needs-started")

// installCommand installs what a ZooKeeper server needs here.
const installCommand = "apt-get install default-jre-headless libzookeeper-java"

// InstallCommand is the command that installs what a ZooKeeper server
// needs on Debian: Java and ZooKeeper's jars.
func InstallCommand() string { return installCommand }

// Options of a server; the zero value is a server for lessons.
type Options struct {
	// Tick is ZooKeeper's tickTime, the unit of its clock: sessions may
	// last from 2 to 20 ticks. Default 100 ms (sessions of 200 ms to 2 s).
	Tick time.Duration
	// Ready is how long to wait for the server to answer; default 20 s
	// (the JVM starts in 1–3 s on an idle 2-core machine).
	Ready time.Duration
}

// Server is a ZooKeeper server process this program started on a free
// loopback port, in a temporary directory of its own. Kill stops it and
// removes the directory.
type Server struct {
	Addr    string        // 127.0.0.1:port
	Tick    time.Duration // its tickTime
	Started time.Duration // how long it took to answer
	dir     string
	cmd     *exec.Cmd
	out     *bytes.Buffer
	done    chan struct{}
	once    sync.Once
}

// Available reports whether a ZooKeeper server can be started here, and if
// not, why (ErrNoJava).
func Available() error {
	if _, err := exec.LookPath("java"); err != nil {
		return ErrNoJava
	}
	if _, err := os.Stat(Jar); err != nil {
		return ErrNoJava
	}
	return nil
}

// Start starts ZooKeeperServerMain on a free loopback port and waits until
// it serves requests.
func Start(o Options) (*Server, error) {
	if err := Available(); err != nil {
		return nil, err
	}
	if o.Tick <= 0 {
		o.Tick = 100 * time.Millisecond
	}
	if o.Ready <= 0 {
		o.Ready = 20 * time.Second
	}
	var last error
	for range 3 {
		s, err := start(o)
		if err == nil {
			return s, nil
		}
		last = err
	}
	return nil, last
}

func start(o Options) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "lockstep-zookeeper-")
	if err != nil {
		return nil, fmt.Errorf("zookeeper: a directory for the server: %w", err)
	}
	cfg := strings.Join([]string{
		"tickTime=" + strconv.FormatInt(o.Tick.Milliseconds(), 10),
		"dataDir=" + filepath.Join(dir, "data"),
		"clientPort=" + strconv.Itoa(port),
		"clientPortAddress=127.0.0.1",
		"maxClientCnxns=0",
		"admin.enableServer=false",
		"4lw.commands.whitelist=ruok,srvr,stat",
		"forceSync=no",
	}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "zoo.cfg"), []byte(cfg), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("zookeeper: write zoo.cfg: %w", err)
	}
	// log4j's own configuration, so that the server says only what is wrong.
	log := "log4j.rootLogger=ERROR, C\nlog4j.appender.C=org.apache.log4j.ConsoleAppender\nlog4j.appender.C.layout=org.apache.log4j.PatternLayout\n"
	if err := os.WriteFile(filepath.Join(dir, "log4j.properties"), []byte(log), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("zookeeper: write log4j.properties: %w", err)
	}
	s := &Server{Addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), Tick: o.Tick, dir: dir,
		out: &bytes.Buffer{}, done: make(chan struct{})}
	s.cmd = exec.Command("java", "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
		"-Dzookeeper.admin.enableServer=false", "-Dlog4j.configuration=file:"+filepath.Join(dir, "log4j.properties"),
		"-cp", dir+":"+Jar, mainCls, filepath.Join(dir, "zoo.cfg"))
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	t0 := time.Now()
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("zookeeper: start the JVM: %w", err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()
	if err := s.waitReady(o.Ready); err != nil {
		s.Kill()
		return nil, err
	}
	s.Started = time.Since(t0)
	return s, nil
}

// waitReady asks the server until it serves requests.
func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		select {
		case <-s.done:
			return fmt.Errorf("zookeeper: the server on %s exited: %s", s.Addr, s.out.String())
		default:
		}
		// ruok says imok as soon as the process runs; srvr says its
		// version once it serves requests.
		if ans, err := s.FourLetter("srvr"); err == nil && strings.Contains(ans, "Zookeeper version:") {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("zookeeper: the server on %s does not answer ruok within %v", s.Addr, limit)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// FourLetter sends one of ZooKeeper's four-letter words (ruok, srvr) and
// gives its answer.
func (s *Server) FourLetter(word string) (string, error) {
	c, err := net.DialTimeout("tcp", s.Addr, time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := c.Write([]byte(word)); err != nil {
		return "", err
	}
	var b strings.Builder
	sc := bufio.NewScanner(c)
	for sc.Scan() {
		b.WriteString(sc.Text())
		b.WriteByte('\n')
	}
	return strings.TrimSpace(b.String()), nil
}

// Pid is the JVM's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Stop freezes the server (SIGSTOP), as a server that hangs: its sessions
// do not expire while it is stopped, and nothing is answered. Resume undoes
// it.
func (s *Server) Stop() error { return s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume lets a server that Stop froze run again (SIGCONT).
func (s *Server) Resume() error { return s.cmd.Process.Signal(syscall.SIGCONT) }

// Kill stops the process at once and removes its directory.
func (s *Server) Kill() {
	s.once.Do(func() {
		if s.cmd.Process != nil {
			_ = s.cmd.Process.Signal(syscall.SIGCONT) // a stopped JVM dies too
			_ = s.cmd.Process.Kill()
		}
		<-s.done
		os.RemoveAll(s.dir)
	})
}

// freePort asks the kernel for a free loopback TCP port.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("zookeeper: a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
