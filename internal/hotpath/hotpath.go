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
	"strconv"
	"strings"

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
	g, rest, ok := globals(env)
	if !ok || len(rest) == 0 {
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
	paths := state.Resolve(env.Cwd, g.session, env.Getenv("BROWSE_STATE_FILE"))
	st, err := state.Read(paths.StateFile)
	if err != nil || st.BinaryVersion != version.Version || !state.DaemonAlive(st.PID) {
		return 0, false
	}
	req := Request{Command: cmd.name, Args: rest[1:], TabID: g.tabID, Timeout: g.timeout, Cwd: env.Cwd}
	code, err = Send(st, &req, env.Stdout, env.Stderr)
	if err == ErrNoDaemon {
		return 0, false // it never ran: the full CLI starts a fresh daemon
	}
	if err != nil {
		return Fail(env.Stderr, err.Error(), "The daemon log is "+paths.LogFile+"."), true
	}
	return code, true
}

// options are the global flags the fast path understands.
type options struct {
	session        string
	tabID, timeout int
}

// globals reads the global flags as the full CLI does: in front of the
// command, and --tab-id wherever it stands. Anything it would have to
// explain (a bad value, --cdp-url and its checks) is not ok: the full CLI
// says it.
func globals(env Env) (options, []string, bool) {
	o := options{session: env.Getenv("BROWSE_SESSION")}
	if env.Getenv("BROWSE_CDP_URL") != "" {
		return o, nil, false
	}
	args := env.Args
	i := 0
	for ; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		if name != "--session" && name != "--tab-id" && name != "--timeout" {
			if name == "--cdp-url" {
				return o, nil, false
			}
			break
		}
		if !hasValue {
			if i+1 >= len(args) {
				return o, nil, false
			}
			i++
			value = args[i]
		}
		if !o.set(name, value) {
			return o, nil, false
		}
	}
	rest := append([]string(nil), args[i:]...)
	for j := 1; j < len(rest) && rest[j] != "--"; j++ {
		name, value, hasValue := strings.Cut(rest[j], "=")
		if name != "--tab-id" {
			continue
		}
		drop := 1
		if !hasValue {
			if j+1 >= len(rest) {
				return o, nil, false
			}
			value, drop = rest[j+1], 2
		}
		if !o.set(name, value) {
			return o, nil, false
		}
		rest = append(rest[:j], rest[j+drop:]...)
		j--
	}
	return o, rest, state.ValidSession(o.session) == nil
}

func (o *options) set(name, value string) bool {
	if name == "--session" {
		o.session = value
		return true
	}
	n, err := strconv.Atoi(value)
	if err != nil || n <= 0 {
		return false
	}
	if name == "--tab-id" {
		o.tabID = n
	} else {
		o.timeout = n
	}
	return true
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
