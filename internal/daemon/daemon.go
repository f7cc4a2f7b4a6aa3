// Package daemon is the long-lived process behind the CLI: it owns the
// browser, serves POST /command on 127.0.0.1 with a bearer token, writes the
// state file the CLI reads, and exits when idle or when its browser dies.
package daemon

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/browsehq/browse/internal/activity"
	"github.com/browsehq/browse/internal/auth"
	"github.com/browsehq/browse/internal/browser"
	"github.com/browsehq/browse/internal/commands"
	"github.com/browsehq/browse/internal/denylog"
	"github.com/browsehq/browse/internal/envelope"
	"github.com/browsehq/browse/internal/safepath"
	"github.com/browsehq/browse/internal/state"
)

// Config is everything a daemon is started with.
type Config struct {
	Paths         state.Paths
	Workspace     string
	Port          int           // 0: random in 10000–60000
	IdleTimeout   time.Duration // BROWSE_IDLE_TIMEOUT
	CDPURL        string        // attach instead of launching
	NavTimeout    time.Duration // default deadline for page loads
	ActionTimeout time.Duration // default deadline for element actions
	QuickTimeout  time.Duration // default deadline for everything else
	Version       string
	// RawContent gives the local user page content without the envelope and
	// hidden-text handling (BROWSE_UNTRUSTED_ENVELOPE=0). Paired agents
	// always get both.
	RawContent bool
	// SetupKeyLifetime shortens pairing keys' 5 minutes
	// (BROWSE_SETUP_KEY_TTL, in ms).
	SetupKeyLifetime time.Duration
	// Ready receives one handshake line once the daemon serves — "ready PORT"
	// or "error MESSAGE" — and is then closed. The spawning CLI reads it
	// instead of polling the state file.
	Ready io.WriteCloser
}

// Daemon is one running daemon.
type Daemon struct {
	cfg       Config
	token     string
	browser   *browser.Browser
	started   time.Time
	port      int
	lastUsed  atomic.Int64 // unix nanoseconds of the last command
	busy      atomic.Int32 // commands in flight: never idle-exit under one
	stopOnce  sync.Once
	stopping  chan struct{}
	stopAsked atomic.Bool
	server    *http.Server
	flushStop chan struct{} // closing it makes the capture flusher write and stop
	flushDone chan struct{}

	// Security: who may call (tokens), the stream cookies, refusals worth
	// keeping (denials), the feed of commands (activity), this session's
	// canary, the /connect limit and the tunnel.
	tokens       *auth.Registry
	root         *auth.Client
	streams      *auth.StreamSessions
	denials      *denylog.Log
	activity     *activity.Feed
	canary       string
	connectLimit *auth.WindowLimiter // /connect on the local listener
	// tunnelConnectLimit is /connect's on the tunnel listener.
	tunnelConnectLimit *auth.WindowLimiter
	tunnel             tunnelState
	stateMu            sync.Mutex // serializes state file writes
}

// Run starts the browser and the HTTP server and blocks until the daemon
// stops. The returned error says why it stopped abnormally.
func Run(cfg Config) error {
	d := &Daemon{cfg: cfg, started: time.Now(), stopping: make(chan struct{})}
	d.lastUsed.Store(time.Now().UnixNano())
	signal.Ignore(syscall.SIGHUP) // the agent's shell going away must not stop us

	tok := make([]byte, 32)
	rand.Read(tok)
	d.token = hex.EncodeToString(tok)
	d.tokens = auth.NewRegistry(d.token)
	d.tokens.SetupKeyLifetime = cfg.SetupKeyLifetime
	d.root, _ = d.tokens.Lookup(d.token)
	d.streams = auth.NewStreamSessions()
	d.denials = denylog.Open(denylog.DefaultDir())
	d.activity = activity.NewFeed(1000)
	d.canary = envelope.NewCanary()
	d.connectLimit = auth.NewWindowLimiter(300, time.Minute)
	d.tunnelConnectLimit = auth.NewWindowLimiter(300, time.Minute)

	// Launch the browser and open the listener at the same time: the browser
	// dominates cold start, the listener is free.
	type launched struct {
		b   *browser.Browser
		err error
	}
	bch := make(chan launched, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		b, err := browser.Start(ctx, browser.Options{ProfileDir: cfg.Paths.ProfileDir, CDPURL: cfg.CDPURL, Stderr: os.Stderr})
		bch <- launched{b, err}
	}()
	ln, err := listen(cfg.Port)
	if err != nil {
		d.handshake("error " + err.Error())
		return err
	}
	l := <-bch
	if l.err != nil {
		ln.Close()
		d.handshake("error " + l.err.Error())
		return l.err
	}
	d.browser = l.b
	d.port = ln.Addr().(*net.TCPAddr).Port

	if err := d.writeState(); err != nil {
		d.browser.Close()
		d.handshake("error writing the state file: " + err.Error())
		return err
	}
	d.server = newServer(d.routes())
	go d.server.Serve(ln)
	d.flushStop, d.flushDone = make(chan struct{}), make(chan struct{})
	go func() { d.flushCaptures(d.flushStop); close(d.flushDone) }()
	if tunnelAtStart() {
		// A tunnel asked for at start that cannot open ends the daemon:
		// the user asked for remote access, not for a quiet local daemon.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := d.startTunnel(ctx)
		cancel()
		if err != nil {
			d.shutdown() // first: the CLI that hears the error finds nothing left
			d.handshake("error " + err.Error())
			return err
		}
	}
	d.handshake("ready " + strconv.Itoa(d.port))
	log.Printf("daemon %d serving on 127.0.0.1:%d (mode %s, version %s)", os.Getpid(), d.port, d.mode(), cfg.Version)

	return d.wait()
}

// newServer is an HTTP server with read limits: bodies are small, and a
// slow client must not hold a goroutine. No write timeout: answers stream
// (SSE) or wait on slow pages under their own deadlines.
func newServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
}

func (d *Daemon) handshake(line string) {
	if d.cfg.Ready != nil {
		fmt.Fprintln(d.cfg.Ready, line)
		d.cfg.Ready.Close()
	}
}

// listen binds 127.0.0.1 on the given port, or on a random one in
// 10000–60000, retrying when a port is taken.
func listen(port int) (net.Listener, error) {
	if port != 0 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return nil, fmt.Errorf("cannot listen on BROWSE_PORT %d: %w", port, err)
		}
		return ln, nil
	}
	var last error
	for range 20 {
		n, _ := rand.Int(rand.Reader, big.NewInt(50001))
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(10000+int(n.Int64())))
		if err == nil {
			return ln, nil
		}
		last = err
	}
	return nil, fmt.Errorf("no free port in 10000–60000 after 20 tries: %w", last)
}

func (d *Daemon) mode() string {
	if d.cfg.CDPURL != "" {
		return "cdp"
	}
	return "headless"
}

// wait blocks until something ends the daemon: stop, idle, a signal, or the
// browser going away.
func (d *Daemon) wait() error {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	tick := time.NewTicker(min(max(d.cfg.IdleTimeout/10, 10*time.Millisecond), 5*time.Second))
	defer tick.Stop()
	var reason error
	for reason == nil {
		select {
		case <-d.stopping:
			log.Printf("stopping: asked to")
			d.shutdown()
			return nil
		case s := <-sigs:
			log.Printf("stopping: %v", s)
			d.shutdown()
			return nil
		case <-d.browser.Done():
			reason = errors.New("the browser went away (it crashed, was killed, or the CDP connection dropped); the next command starts a fresh one")
		case <-tick.C:
			idle := time.Since(time.Unix(0, d.lastUsed.Load()))
			if d.cfg.IdleTimeout > 0 && idle >= d.cfg.IdleTimeout && d.busy.Load() == 0 {
				log.Printf("stopping: idle for %s", idle.Round(time.Millisecond))
				d.shutdown()
				return nil
			}
		}
	}
	log.Print(reason)
	d.shutdown()
	d.recordExit(reason)
	return reason
}

// recordExit leaves the state file behind with the reason, for the next CLI
// to report; its pid is dead by then, so no CLI will talk to it.
func (d *Daemon) recordExit(reason error) {
	d.tunnel.mu.Lock() // stateFile reads the tunnel's fields
	defer d.tunnel.mu.Unlock()
	st := d.stateFile()
	st.ExitReason = reason.Error()
	d.stateMu.Lock()
	defer d.stateMu.Unlock()
	if err := state.Write(d.cfg.Paths.StateFile, st); err != nil {
		log.Printf("recording the exit reason: %v", err)
	}
}

// stateFile is the state file's content; the tunnel's part is read without
// its lock, so callers hold tunnel.mu or run when no tunnel call can.
func (d *Daemon) stateFile() *state.File {
	st := &state.File{
		PID: os.Getpid(), Port: d.port, Token: d.token,
		StartedAt: d.started.UTC().Format(time.RFC3339), BinaryVersion: d.cfg.Version,
		Mode: d.mode(), CDPURL: d.cfg.CDPURL, Session: d.cfg.Paths.Session, ChromiumPID: d.browser.PID(),
	}
	st.TunnelPort, st.Tunnel = d.tunnelInfoLocked()
	return st
}

// writeState writes the state file (mode 0600).
func (d *Daemon) writeState() error {
	d.stateMu.Lock()
	defer d.stateMu.Unlock()
	return state.Write(d.cfg.Paths.StateFile, d.stateFile())
}

// Stop asks the daemon to shut down.
func (d *Daemon) Stop() { d.stopOnce.Do(func() { close(d.stopping) }) }

func (d *Daemon) shutdown() {
	state.RemoveIfOwned(d.cfg.Paths.StateFile, os.Getpid())
	d.tunnel.mu.Lock()
	d.closeTunnelLocked()
	d.tunnel.mu.Unlock()
	if d.server != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		d.server.Shutdown(ctx)
		cancel()
	}
	d.browser.Close()
	if d.flushStop != nil {
		close(d.flushStop) // write what the buffers still hold
		<-d.flushDone
	}
	d.denials.Close()
}

func (d *Daemon) touch() { d.lastUsed.Store(time.Now().UnixNano()) }

// Status implements commands.Daemon.
func (d *Daemon) Status() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Status: healthy\nPID: %d\nPort: %d\nMode: %s\n", os.Getpid(), d.port, d.mode())
	if d.cfg.CDPURL != "" {
		fmt.Fprintf(&b, "Browser: attached to %s\n", d.cfg.CDPURL)
	} else {
		fmt.Fprintf(&b, "Browser: Chromium, pid %d\n", d.browser.PID())
	}
	tabs := d.browser.Tabs()
	active, _ := d.browser.Tab(0)
	if active != nil {
		fmt.Fprintf(&b, "Tabs: %d (active: %d, %s)\n", len(tabs), active.ID, active.URL())
	}
	if d.cfg.Paths.Session != "" {
		fmt.Fprintf(&b, "Session: %s\n", d.cfg.Paths.Session)
	}
	fmt.Fprintf(&b, "Uptime: %s\nIdle timeout: %s\nVersion: %s\nState file: %s", time.Since(d.started).Round(time.Second), d.cfg.IdleTimeout, d.cfg.Version, d.cfg.Paths.StateFile)
	return b.String()
}

// Shutdown implements commands.Daemon: the stop happens after the reply.
func (d *Daemon) Shutdown() { d.stopAsked.Store(true) }

// Exec implements commands.Daemon: one command, run as POST /command runs it.
func (d *Daemon) Exec(ctx context.Context, command string, args []string, tabID int) (string, *commands.Error) {
	return d.Execute(ctx, &Request{Command: command, Args: args, TabID: tabID})
}

// Workspace implements commands.Daemon.
func (d *Daemon) Workspace() string { return d.cfg.Workspace }

// StateDir implements commands.Daemon.
func (d *Daemon) StateDir() string { return d.cfg.Paths.Dir }

// SafeRoots implements commands.Daemon.
func (d *Daemon) SafeRoots() []string { return safepath.DefaultRoots(d.cfg.Workspace) }
