package cli

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/browsehq/browse/internal/hotpath"
	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/version"
)

// request is the JSON body of POST /command.
type request = hotpath.Request

type client struct {
	env       Env
	opts      options
	paths     state.Paths
	workspace string
}

const startTimeout = 30 * time.Second // daemon + browser start

// errNoDaemon means nothing answered on the daemon's port.
var errNoDaemon = hotpath.ErrNoDaemon

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
	if c.opts.CDPURL != "" && c.opts.CDPURL != st.CDPURL {
		running := "a browser it launched"
		if st.CDPURL != "" {
			running = "the browser at " + st.CDPURL
		}
		return fmt.Errorf("the daemon for this workspace (pid %d) drives %s, not %s; run 'browse stop' first, or use --session NAME for a second daemon", st.PID, running, c.opts.CDPURL)
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
	return c.spawn(c.opts.CDPURL)
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
	cdpURL := c.opts.CDPURL
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

// send POSTs the command and prints the answer, as the fast path does. It
// returns errNoDaemon only when nothing was listening, so the command
// certainly did not run.
func (c *client) send(st *state.File, req *request) (int, error) {
	return hotpath.Send(st, req, c.env.Stdout, c.env.Stderr)
}
