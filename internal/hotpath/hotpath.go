// Package hotpath is the CLI's fast path: a plain command for a daemon that
// is already up and of the same build, sent with as little linked in as
// possible, so that a warm call costs little more than starting a process.
//
// Everything else (no daemon yet, another build's daemon, help, chain,
// stop, status, restart, a usage error, an unknown command) is the full
// CLI's, in browse-core: Run says it did not handle the call, and the
// `browse` command hands it over unchanged.
package hotpath

import (
	"encoding/json"
	"io"

	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/version"
)

// Env is the outside world, injected for tests.
type Env struct {
	Args   []string // without the program name
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Cwd    string
}

// Run sends the call to the running daemon and prints the answer, if the
// fast path can take it; handled is false when the full CLI must.
func Run(env Env) (code int, handled bool) {
	// A flag the CLI must explain, or --cdp-url and its checks: the full
	// CLI's.
	g, rest, err := ParseGlobals(env.Args, env.Getenv)
	if err != nil || g.CDPURL != "" || len(rest) == 0 {
		return 0, false
	}
	if rest[0] == "version" || rest[0] == "--version" {
		io.WriteString(env.Stdout, "browse "+version.Version+"\n")
		return 0, true
	}
	cmd, known := commandNames[rest[0]]
	if !known || cmd.cliOnly {
		return 0, false
	}
	paths := state.Resolve(env.Cwd, g.Session, env.Getenv("BROWSE_STATE_FILE"))
	st, err := state.Read(paths.StateFile)
	if err != nil || st.BinaryVersion != version.Version || !state.DaemonAlive(st.PID) {
		return 0, false
	}
	req := Request{Command: cmd.name, Args: rest[1:], TabID: g.TabID, Timeout: g.Timeout, Cwd: env.Cwd}
	code, err = Send(st, &req, env.Stdout, env.Stderr)
	if err == ErrNoDaemon {
		return 0, false // it never ran: the full CLI starts a fresh daemon
	}
	if err != nil {
		return Fail(env.Stderr, err.Error(), "The daemon log is "+paths.LogFile+"."), true
	}
	return code, true
}

// Fail prints an error for an agent and returns exit code 1.
func Fail(w io.Writer, msg, hint string) int {
	io.WriteString(w, "Error: "+msg+"\n")
	if hint != "" {
		io.WriteString(w, "Hint: "+hint+"\n")
	}
	return 1
}

// errorAnswer is the body of a failed command.
type errorAnswer struct {
	Error string `json:"error"`
	Hint  string `json:"hint"`
}

func decodeError(body []byte) (errorAnswer, bool) {
	var e errorAnswer
	return e, json.Unmarshal(body, &e) == nil && e.Error != ""
}
