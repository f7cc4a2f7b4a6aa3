// Package cli is the thin client: it finds the workspace's daemon (starting
// one if there is none), sends the command as one HTTP request, prints the
// answer and exits 0, or prints the error and exits 1.
package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/browsehq/browse/internal/commands"
	"github.com/browsehq/browse/internal/hotpath"
	"github.com/browsehq/browse/internal/state"
	"github.com/browsehq/browse/internal/version"
)

// Env is the outside world the CLI runs in, injected for tests.
type Env struct {
	Args   []string // without the program name
	Stdin  *os.File // read only by commands that take stdin (chain); may be nil
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Cwd    string
}

// options are the global flags, which go before the command.
type options = hotpath.Globals

const globalUsage = "Usage: browse [--session NAME] [--cdp-url URL] [--tab-id N] [--timeout MS] <command> [args]"

// Main runs the CLI and returns the process exit code.
func Main(env Env) int {
	opts, rest, err := hotpath.ParseGlobals(env.Args, env.Getenv)
	if err != nil {
		return fail(env, err.Error(), globalUsage)
	}
	if len(rest) == 0 {
		fmt.Fprint(env.Stderr, commands.Help())
		return 1
	}
	name, args := rest[0], rest[1:]
	switch name {
	case "--version", "version":
		fmt.Fprintln(env.Stdout, "browse "+version.Version)
		return 0
	case "-h", "--help":
		name = "help"
	}
	cmd, ok := commands.Lookup(name)
	if !ok {
		e := commands.UnknownCommand(name)
		return fail(env, e.Msg, e.Hint)
	}
	name = cmd.Name // an alias goes out under the command's own name
	parsed, flags, err := commands.Parse(cmd, args)
	if err != nil {
		e := err.(*commands.Error)
		return fail(env, e.Msg, e.Hint)
	}
	args = commands.AbsPathArgs(cmd, args, env.Cwd)
	steps := 1
	if cmd.Stdin {
		in := ""
		if len(parsed) == 0 {
			var err error
			if in, err = readStdin(env.Stdin); err != nil {
				return fail(env, err.Error(), "Pipe the input in (echo '[[\"url\"]]' | browse "+cmd.Name+"), or give it as the argument.")
			}
		} else {
			in, args = args[len(args)-1], args[:len(args)-1]
		}
		in, steps = resolveChainPaths(in, env.Cwd)
		args = append(args, in)
	}

	paths := state.Resolve(env.Cwd, opts.Session, env.Getenv("BROWSE_STATE_FILE"))
	c := &client{env: env, opts: opts, paths: paths, workspace: state.ProjectRoot(env.Cwd)}
	switch name {
	case "help":
		out, err := cmd.Run(context.Background(), &commands.Call{Args: parsed, Flags: flags})
		if err != nil {
			e := err.(*commands.Error)
			return fail(env, e.Msg, e.Hint)
		}
		fmt.Fprint(env.Stdout, out)
		return 0
	case "restart":
		return c.restart()
	}
	if cmd.NoStart {
		// Asking about or stopping a daemon must neither start one nor
		// replace the running one, whatever build it is.
		st := c.liveState()
		if st == nil && name == "stop" {
			fmt.Fprintln(env.Stdout, "Not running: nothing to stop (no daemon for "+paths.StateFile+")")
			return 0
		}
		if st == nil {
			fmt.Fprintln(env.Stdout, "Status: not running (no daemon for "+paths.StateFile+")")
			return 0
		}
		if name == "stop" {
			// The daemon answers "Stopped" too; it is not printed, since
			// this line says it once however the daemon ended (asked, or
			// signalled when it did not answer).
			quiet := *c
			quiet.env.Stdout = io.Discard
			if err := quiet.stopDaemon(st); err != nil {
				return fail(env, err.Error(), "")
			}
			fmt.Fprintln(env.Stdout, "Stopped")
			return 0
		}
		if st.BinaryVersion != version.Version {
			fmt.Fprintf(env.Stderr, "browse: the daemon runs version %s, this CLI is %s; the next command restarts it\n", st.BinaryVersion, version.Version)
		}
		code, err := c.send(st, &request{Command: name, Args: args, TabID: opts.TabID, Timeout: opts.Timeout})
		if err != nil {
			return fail(env, err.Error(), "The daemon log is "+paths.LogFile+".")
		}
		return code
	}
	return c.run(&request{Command: name, Args: args, TabID: opts.TabID, Timeout: opts.Timeout, Steps: steps})
}

// fail prints an error for an agent and returns exit code 1.
func fail(env Env, msg, hint string) int { return hotpath.Fail(env.Stderr, msg, hint) }

// maxStdinBytes caps what a command may read from standard input, and
// stdinWait how long the CLI waits for a pipe that is never closed.
const (
	maxStdinBytes = 1 << 20
	stdinWait     = 30 * time.Second
)

// resolveChainPaths makes the file arguments of a chain's steps absolute
// against the CLI's directory, as they would be run one by one, and counts
// the steps. Input that does not parse goes as it is: the daemon says why.
func resolveChainPaths(in, cwd string) (string, int) {
	steps, err := commands.ParseChain(in)
	if err != nil {
		return in, 1
	}
	for i, step := range steps {
		if cmd, ok := commands.Lookup(step[0]); ok {
			steps[i] = append([]string{step[0]}, commands.AbsPathArgs(cmd, step[1:], cwd)...)
		}
	}
	out, err := json.Marshal(steps)
	if err != nil {
		return in, len(steps)
	}
	return string(out), len(steps)
}

// readStdin reads piped input; a terminal is not read (it would wait for
// the user), and gives "" like an empty pipe.
func readStdin(f *os.File) (string, error) {
	if f == nil {
		return "", nil
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice != 0 {
		return "", nil
	}
	// A pipe that nobody closes would block forever: read with a deadline.
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(f, maxStdinBytes+1))
		done <- read{data, err}
	}()
	var r read
	select {
	case r = <-done:
	case <-time.After(stdinWait):
		return "", fmt.Errorf("standard input stayed open with no end for %s", stdinWait)
	}
	data, err := r.data, r.err
	if err != nil {
		return "", fmt.Errorf("cannot read standard input: %v", err)
	}
	if len(data) > maxStdinBytes {
		return "", fmt.Errorf("standard input is over 1 MiB")
	}
	return string(data), nil
}
