// Package peer drives browser CLIs the way an agent drives them, one fresh
// process per command, so the benches can time browse against its peers.
package peer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Tool is a browser CLI with the working directory and environment it runs in.
type Tool struct {
	Name string
	Bin  string
	Dir  string   // working directory
	Env  []string // added to this process's environment; later entries win
}

// CommandTimeout bounds every command, so a stuck tool cannot hang a bench.
const CommandTimeout = time.Minute

// Run runs one command in a fresh process and returns its wall time and its
// standard output. A non-zero exit or a timeout is an error that quotes the
// first line of what the command printed, standard error first.
func (t *Tool) Run(args ...string) (time.Duration, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), CommandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.Bin, args...)
	cmd.Dir = t.Dir
	cmd.Env = append(os.Environ(), t.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	// A daemon started by this command may inherit its stdout; do not wait
	// for the daemon to close it.
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		err = fmt.Errorf("%s %s: %v", t.Name, strings.Join(args, " "), err)
		line := FirstLine(stderr.String())
		if line == "" {
			line = FirstLine(stdout.String())
		}
		if line != "" {
			err = fmt.Errorf("%w: %s", err, line)
		}
	}
	return d, stdout.String(), err
}

// With returns a copy of t with extra environment entries, which override
// t's own.
func (t *Tool) With(env ...string) *Tool {
	c := *t
	c.Env = append(append([]string(nil), t.Env...), env...)
	return &c
}

// AgentBrowser returns agent-browser set up for a bench: Debian's Chromium
// (it must not download a browser of its own), the named session, and a
// socket directory and empty config of its own under dir, so a user's
// agent-browser is neither used nor disturbed; and an idle timeout in case
// the bench dies before closing it.
func AgentBrowser(bin, dir, session string) (*Tool, error) {
	config := filepath.Join(dir, "config.json")
	if err := os.WriteFile(config, []byte("{}\n"), 0o600); err != nil {
		return nil, err
	}
	chromium := os.Getenv("BROWSE_CHROMIUM_PATH")
	if chromium == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome-headless-shell"} {
			if p, err := exec.LookPath(name); err == nil {
				chromium = p
				break
			}
		}
	}
	if chromium == "" {
		return nil, errors.New("no Chromium on PATH")
	}
	return &Tool{Name: "agent-browser", Bin: bin, Dir: dir, Env: []string{
		"AGENT_BROWSER_EXECUTABLE_PATH=" + chromium,
		"AGENT_BROWSER_SESSION=" + session,
		"AGENT_BROWSER_SOCKET_DIR=" + filepath.Join(dir, "sockets"),
		"AGENT_BROWSER_CONFIG=" + config,
		"AGENT_BROWSER_IDLE_TIMEOUT_MS=300000",
		"AGENT_BROWSER_NO_VERSION_CHECK=1", // it would fetch a release page
	}}, nil
}

// FirstLine is s's first non-blank line, trimmed.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}
