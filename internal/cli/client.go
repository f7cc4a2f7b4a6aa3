package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/version"
)

// request is the JSON body of POST /command.
type request struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
	TabID   int      `json:"tabId,omitempty"`
	Timeout int      `json:"timeout,omitempty"`
	// steps is how many commands the request runs (a chain's): the CLI
	// waits for each in turn.
	steps int
}

type client struct {
	env       Env
	opts      options
	paths     state.Paths
	workspace string
}

const (
	startTimeout = 30 * time.Second // daemon + browser start
	// defaultWait is how long the CLI waits for an answer when no --timeout
	// is given: longer than any command's own default deadline.
	defaultWait = 90 * time.Second
	busyNotice  = 10 * time.Second
)

// errNoDaemon means nothing answered on the daemon's port.
var errNoDaemon = errors.New("no daemon answered")

// run sends one command, starting or replacing a dead daemon as needed.
func (c *client) run(req *request) int {
	st, err := c.ensureDaemon()
	if err != nil {
		return fail(c.env, err.Error(), "The daemon log is "+c.paths.LogFile+".")
	}
	code, err := c.send(st, req)
	if errors.Is(err, errNoDaemon) {
		// The daemon died between our read of the state file and the request
		// (its browser crashed, or it went idle): start a fresh one, once.
		st, err = c.replaceDead(st)
		if err != nil {
			return fail(c.env, err.Error(), "The daemon log is "+c.paths.LogFile+".")
		}
		code, err = c.send(st, req)
	}
	if err != nil {
		return fail(c.env, err.Error(), "The daemon log is "+c.paths.LogFile+".")
	}
	return code
}

// liveState returns the state of a running daemon, or nil.
func (c *client) liveState() *state.File {
	st, err := state.Read(c.paths.StateFile)
	if err != nil || !state.DaemonAlive(st.PID) {
		return nil
	}
	return st
}

// ensureDaemon returns a daemon to talk to. The happy path is one file read:
// no health check, no lock.
func (c *client) ensureDaemon() (*state.File, error) {
	st, err := state.Read(c.paths.StateFile)
	if err == nil && state.DaemonAlive(st.PID) {
		if err := c.checkSettings(st); err != nil {
			return nil, err
		}
		if st.BinaryVersion == version.Version {
			return st, nil
		}
		return c.replaceOutdated(st)
	}
	return c.startLocked(st)
}

// checkSettings refuses to use a daemon whose browser differs from the one
// asked for: silently replacing a configured daemon would lose its tabs and
// logins, silently using it would drive the wrong browser.
func (c *client) checkSettings(st *state.File) error {
	if c.opts.cdpURL != "" && c.opts.cdpURL != st.CDPURL {
		running := "a browser it launched"
		if st.CDPURL != "" {
			running = "the browser at " + st.CDPURL
		}
		return fmt.Errorf("the daemon for this workspace (pid %d) drives %s, not %s; run 'browse stop' first, or use --session NAME for a second daemon", st.PID, running, c.opts.cdpURL)
	}
	return nil
}

// startLocked starts a daemon under the startup lock, so racing first calls
// make exactly one. prev is the state file as read before the lock, if any.
func (c *client) startLocked(prev *state.File) (*state.File, error) {
	lock, err := state.AcquireLock(c.paths.LockFile, startTimeout)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	// Another CLI may have started one while we waited for the lock.
	if st, err := state.Read(c.paths.StateFile); err == nil && state.DaemonAlive(st.PID) {
		return st, c.checkSettings(st)
	}
	if prev != nil && prev.PID > 0 {
		c.noteReplaced(prev)
	}
	return c.spawn(c.opts.cdpURL)
}

// replaceDead starts a new daemon after the old one stopped answering. A
// daemon whose process is still alive is never replaced here: it may be busy
// or shutting down, and we wait for it instead.
func (c *client) replaceDead(old *state.File) (*state.File, error) {
	lock, err := state.AcquireLock(c.paths.LockFile, startTimeout)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if st, err := state.Read(c.paths.StateFile); err == nil && st.PID != old.PID && state.DaemonAlive(st.PID) {
		return st, nil // someone else already replaced it
	}
	if !waitExit(old.PID, 3*time.Second) {
		return nil, fmt.Errorf("the daemon (pid %d) is alive but not answering on port %d; it was left running — run 'browse restart' to replace it", old.PID, old.Port)
	}
	if st, err := state.Read(c.paths.StateFile); err == nil && st.PID == old.PID {
		old = st // it may have recorded why it exited
	}
	c.noteReplaced(old)
	return c.spawn(old.CDPURL)
}

// noteReplaced tells the agent, on stderr, that its daemon (and so its tabs)
// is new, and why the old one went.
func (c *client) noteReplaced(old *state.File) {
	why := ""
	if old.ExitReason != "" {
		why = " (" + old.ExitReason + ")"
	}
	fmt.Fprintf(c.env.Stderr, "browse: the daemon (pid %d) had exited%s; starting a new one — earlier tabs and refs are gone\n", old.PID, why)
}

// replaceOutdated restarts a daemon built from a different binary, keeping
// its settings. The new daemon carries our version, so this happens once.
func (c *client) replaceOutdated(st *state.File) (*state.File, error) {
	lock, err := state.AcquireLock(c.paths.LockFile, startTimeout)
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	if cur, err := state.Read(c.paths.StateFile); err == nil && state.DaemonAlive(cur.PID) && cur.BinaryVersion == version.Version {
		return cur, nil // another CLI already restarted it
	}
	fmt.Fprintf(c.env.Stderr, "browse: the daemon runs version %s but this is %s; restarting it\n", st.BinaryVersion, version.Version)
	if err := c.stopDaemon(st); err != nil {
		return nil, err
	}
	return c.spawn(st.CDPURL)
}

func (c *client) restart() int {
	lock, err := state.AcquireLock(c.paths.LockFile, startTimeout)
	if err != nil {
		return fail(c.env, err.Error(), "")
	}
	defer lock.Release()
	cdpURL := c.opts.cdpURL
	if st := c.liveState(); st != nil {
		if cdpURL == "" {
			cdpURL = st.CDPURL // keep the settings it ran with
		}
		if err := c.stopDaemon(st); err != nil {
			return fail(c.env, err.Error(), "")
		}
	}
	st, err := c.spawn(cdpURL)
	if err != nil {
		return fail(c.env, err.Error(), "The daemon log is "+c.paths.LogFile+".")
	}
	fmt.Fprintf(c.env.Stdout, "Restarted: daemon pid %d on port %d\n", st.PID, st.Port)
	return 0
}

// stopDaemon asks a daemon to stop and makes sure its process is gone. Only
// the pid from its state file is ever signalled.
func (c *client) stopDaemon(st *state.File) error {
	c.send(st, &request{Command: "stop", Args: []string{}})
	if waitExit(st.PID, 2*time.Second) {
		return nil
	}
	syscall.Kill(st.PID, syscall.SIGTERM)
	if waitExit(st.PID, 2*time.Second) {
		return nil
	}
	syscall.Kill(st.PID, syscall.SIGKILL)
	if waitExit(st.PID, time.Second) {
		return nil
	}
	return fmt.Errorf("could not stop the daemon (pid %d)", st.PID)
}

func waitExit(pid int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for state.DaemonAlive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// spawn starts `browse serve` detached (its own session, so it outlives the
// shell that ran us) and waits for its handshake line on a pipe.
func (c *client) spawn(cdpURL string) (*state.File, error) {
	if err := state.EnsureDir(c.paths.Dir); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	args := []string{"serve", "--state-file", c.paths.StateFile}
	if c.paths.Session != "" {
		args = append(args, "--session", c.paths.Session)
	}
	if cdpURL != "" {
		args = append(args, "--cdp-url", cdpURL)
	}
	logf, err := os.OpenFile(c.paths.LogFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	cmd := exec.Command(exe, args...)
	cmd.Dir = c.workspace
	cmd.Stdout = pw
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		pw.Close()
		return nil, fmt.Errorf("starting the daemon: %w", err)
	}
	pw.Close()
	pid := cmd.Process.Pid
	cmd.Process.Release()

	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(pr).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case l := <-line:
		if msg, ok := strings.CutPrefix(l, "error "); ok {
			return nil, fmt.Errorf("the daemon could not start: %s", msg)
		}
		if !strings.HasPrefix(l, "ready ") {
			return nil, fmt.Errorf("the daemon (pid %d) exited during start-up", pid)
		}
	case <-time.After(startTimeout):
		syscall.Kill(pid, syscall.SIGKILL)
		return nil, fmt.Errorf("the daemon did not start within %s", startTimeout)
	}
	return state.Read(c.paths.StateFile)
}

// send POSTs the command and prints the answer. It returns errNoDaemon only
// when nothing was listening, so the command certainly did not run.
//
// It speaks HTTP/1.1 over one dialled connection rather than through
// http.Client: the client's transport goroutines and pools cost a CLI that
// sends a single request more than the request itself.
func (c *client) send(st *state.File, req *request) (int, error) {
	body, _ := json.Marshal(req)
	wait := defaultWait
	if req.Timeout > 0 {
		wait = time.Duration(req.Timeout)*time.Millisecond + 5*time.Second
	}
	wait *= time.Duration(max(req.steps, 1))
	addr := "127.0.0.1:" + strconv.Itoa(st.Port)
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return 1, errNoDaemon
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(wait))
	var head bytes.Buffer
	head.Grow(256 + len(body))
	head.WriteString("POST /command HTTP/1.1\r\nHost: " + addr + "\r\nAuthorization: Bearer " + st.Token +
		"\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n")
	head.Write(body)
	if _, err := conn.Write(head.Bytes()); err != nil {
		return 1, errNoDaemon
	}

	notice := time.AfterFunc(busyNotice, func() {
		fmt.Fprintf(c.env.Stderr, "browse: still waiting for the daemon (pid %d) to answer '%s' — it is busy (a slow page or earlier commands on this tab)\n", st.PID, req.Command)
	})
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	notice.Stop()
	if err != nil {
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return 1, fmt.Errorf("the daemon (pid %d) did not answer '%s' within %s; it is alive and was left running — retry, or run 'browse restart'", st.PID, req.Command, wait)
		}
		return 1, fmt.Errorf("the daemon (pid %d) went away while running '%s' (%v); the next command starts a fresh one", st.PID, req.Command, err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK {
		c.env.Stdout.Write(out)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			io.WriteString(c.env.Stdout, "\n")
		}
		return 0, nil
	}
	var e struct {
		Error string `json:"error"`
		Hint  string `json:"hint"`
	}
	if json.Unmarshal(out, &e) != nil || e.Error == "" {
		e.Error = fmt.Sprintf("the daemon answered %s: %s", resp.Status, bytes.TrimSpace(out))
	}
	return fail(c.env, e.Error, e.Hint), nil
}
