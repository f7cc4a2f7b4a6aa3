package daemon

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/version"
)

// Main is `browse serve`: the daemon's entry point. The CLI starts it with its
// stdout as the handshake pipe and its stderr as the daemon log.
func Main(args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	stateFile := fs.String("state-file", os.Getenv("BROWSE_STATE_FILE"), "state file path")
	session := fs.String("session", os.Getenv("BROWSE_SESSION"), "session name")
	cdpURL := fs.String("cdp-url", os.Getenv("BROWSE_CDP_URL"), "attach to this browser instead of launching one")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log.SetFlags(log.LstdFlags | log.Lmicroseconds)
	// The daemon's heap is mostly short-lived CDP answers (an accessibility
	// tree can be megabytes): collect sooner, and hand memory back to the OS,
	// so a long-lived daemon stays small. GOGC/GOMEMLIMIT still override.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(50)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(16 << 20)
	}
	cwd, _ := os.Getwd()
	cfg := Config{
		Paths:            state.Resolve(cwd, *session, *stateFile),
		Workspace:        cwd,
		CDPURL:           *cdpURL,
		IdleTimeout:      envMillis("BROWSE_IDLE_TIMEOUT", 30*time.Minute),
		NavTimeout:       envMillis("BROWSE_NAV_TIMEOUT", 30*time.Second),
		ActionTimeout:    envMillis("BROWSE_ACTION_TIMEOUT", 5*time.Second),
		QuickTimeout:     envMillis("BROWSE_COMMAND_TIMEOUT", 15*time.Second),
		SetupKeyLifetime: envMillis("BROWSE_SETUP_KEY_TTL", 5*time.Minute),
		RawContent:       os.Getenv("BROWSE_UNTRUSTED_ENVELOPE") == "0",
		Version:          version.Version,
		Ready:            os.Stdout,
	}
	if p := os.Getenv("BROWSE_PORT"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 65535 {
			fmt.Fprintf(os.Stdout, "error BROWSE_PORT=%q is not a port number\n", p)
			return 1
		}
		cfg.Port = n
	}
	if err := Run(cfg); err != nil {
		log.Printf("daemon exited: %v", err)
		return 1
	}
	return 0
}

// envMillis reads a duration in milliseconds from the environment.
func envMillis(name string, def time.Duration) time.Duration {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		log.Printf("ignoring %s=%q: not a positive number of milliseconds", name, v)
		return def
	}
	return time.Duration(n) * time.Millisecond
}
