// Package commands is the command registry: one table from which the CLI's
// help, usage errors and "did you mean", the daemon's dispatch, and the
// generated command reference all come. Each entry carries its handler.
package commands

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/browsehq/browse/internal/browser"
)

// Category groups commands by their side effects, as in the reference.
type Category string

const (
	Read  Category = "read"  // reads page state; safe to retry
	Write Category = "write" // changes page state
	Meta  Category = "meta"  // tabs, logs, the daemon itself
)

// Power raises a command above its category for scoped clients (paired
// remote agents): it decides which token scope the command needs.
type Power string

const (
	PowerNone    Power = ""
	PowerAdmin   Power = "admin"   // runs page JavaScript, reads or sets credentials and headers
	PowerControl Power = "control" // ends or reshapes the daemon or the browser
	PowerRoot    Power = "root"    // pairing and the tunnel: the local user's token only
)

// Flag is one option a command takes.
type Flag struct {
	Name  string // "--clear", "-i"
	Value string // placeholder for a flag that takes a value ("N", "path"); "" for a switch
	Help  string
	// Path marks a value that is a file path: the CLI makes it absolute.
	Path bool
	// Repeat flags may be given more than once; their values are joined
	// with newlines.
	Repeat bool
}

// Deadline says which default timeout a command runs under.
type Deadline int

const (
	QuickDeadline  Deadline = iota // reads and bookkeeping: 15 s
	NavDeadline                    // page loads: 30 s (BROWSE_NAV_TIMEOUT)
	ActionDeadline                 // element actions: 5 s (BROWSE_ACTION_TIMEOUT)
)

// Command is one entry of the registry.
type Command struct {
	Name string
	// Aliases are other names for the command. Lookup canonicalises them
	// before anything else looks at the command, so an alias never gets
	// around a rule that names the command.
	Aliases  []string
	Category Category
	Args     string // argument synopsis, e.g. "<url>"
	Summary  string
	Flags    []Flag
	MinArgs  int
	MaxArgs  int // -1: any number
	// FreeText commands take text that may start with "-" (js, type, fill):
	// an undeclared dash word is an argument, not an unknown flag.
	FreeText bool
	// PathArgs are the positions of file-path arguments; the CLI makes them
	// absolute against its own directory before sending. With
	// PathArgsRepeat, every argument from the last listed position on is a path.
	PathArgs       []int
	PathArgsRepeat bool
	// PathArgFilter, when set, says which of the arguments at PathArgs
	// positions really are paths (screenshot's positional argument may be a
	// selector instead).
	PathArgFilter func(arg string) bool
	// PageContent marks output that comes from the page itself (untrusted):
	// the daemon wraps it in the untrusted-content envelope.
	PageContent bool
	// DOMContent commands read the live DOM (text, html, links…): hidden
	// elements on the page are reported as content warnings with their output.
	DOMContent bool
	// Tunnel marks commands a remote agent may run over the tunnel (the
	// reference's 26). File paths are refused there whatever the command.
	Tunnel bool
	// WritesFile, for commands that may write a file even when no path is
	// given (screenshot to its default name, snapshot -a), says whether
	// this invocation does; the tunnel refuses those.
	WritesFile func(args []string, flags map[string]string) bool
	// Power raises the scope a scoped client needs (see Scope).
	Power Power
	// TabFree commands touch no tab's content (tabs, newtab, status): a
	// client that may only drive its own tabs may still run them.
	TabFree bool
	// TabArg commands take a tab id as their first argument (tab,
	// closetab): a client that may only drive its own tabs must own it.
	TabArg bool
	// NoTab commands run without taking a tab's lock (tabs, status, stop…).
	NoTab bool
	// Local commands run in the CLI process without a daemon (help, restart).
	Local bool
	// NoStart commands ask about or end a daemon (status, stop): the CLI
	// never starts or replaces a daemon for them.
	NoStart bool
	// NoBatch commands cannot run inside POST /batch (stop would end the
	// daemon under the other commands).
	NoBatch bool
	// RedactArgs, for commands whose arguments carry a secret (a header's
	// value, a cookie's), returns the arguments as reports may show them.
	RedactArgs func(args []string) []string
	// Stdin commands take their input on standard input (chain's JSON): the
	// CLI reads it and sends it as the last argument.
	Stdin    bool
	Deadline Deadline
	Run      func(ctx context.Context, c *Call) (string, error)
}

// ShownArgs are the arguments as a report or a log may show them: secrets
// hidden, for the commands that take one.
func (c *Command) ShownArgs(args []string) []string {
	if c.RedactArgs == nil {
		return args
	}
	return c.RedactArgs(append([]string(nil), args...))
}

// Scope is the token scope a scoped client needs to run the command:
// "admin", "control" or "root" when the command has that power, else its
// category ("read", "write", "meta").
func (c *Command) Scope() string {
	if c.Power != PowerNone {
		return string(c.Power)
	}
	return string(c.Category)
}

// CLIOnly reports whether only the full CLI may run the command: it runs
// in the CLI (Local), reads standard input (Stdin), or must not start a
// daemon (NoStart). The CLI's fast path hands these over.
func (c *Command) CLIOnly() bool { return c.Local || c.Stdin || c.NoStart }

// Usage is the one-line synopsis: "goto <url>".
func (c *Command) Usage() string {
	if c.Args == "" {
		return c.Name
	}
	return c.Name + " " + c.Args
}

// Daemon is what commands may ask of the daemon that runs them.
type Daemon interface {
	Status() string
	// Workspace is the directory the daemon serves (relative file:// URLs
	// resolve against it).
	Workspace() string
	// SafeRoots are the directories file arguments must lie in.
	SafeRoots() []string
	// StateDir is the .gstack directory beside the daemon's state file,
	// where 'state save' keeps its files.
	StateDir() string
	// Shutdown stops the daemon once the current response is written.
	Shutdown()
	// Pair makes a single-use setup key for a remote agent and returns
	// the instructions to hand it.
	Pair(ctx context.Context, req PairRequest) (string, error)
	// Tunnel starts, stops or reports the tunnel ("start", "stop",
	// "status"), lists paired agents ("agents") or revokes one ("revoke",
	// with its name).
	Tunnel(ctx context.Context, action, arg string) (string, error)
	// Exec runs another command as POST /command would (its own lookup,
	// argument check, tab turn and deadline), for commands that compose
	// others (chain, tab-each).
	Exec(ctx context.Context, command string, args []string, tabID int) (string, *Error)
}

// PairRequest is what pair-agent asks for: a client name ("" for a
// generated one), its scopes (nil for the default set), and whether to add
// the control scope.
type PairRequest struct {
	Client  string
	Scopes  []string
	Control bool
}

// Call is one invocation of a command.
type Call struct {
	Args    []string          // positional arguments
	Flags   map[string]string // given flags; switches map to ""
	Browser *browser.Browser
	Tab     *browser.Tab // the target tab (nil for NoTab commands)
	Daemon  Daemon
	Timeout time.Duration
	// ActionTimeout bounds the wait for an element in commands with a
	// longer deadline of their own (a screenshot of a missing element
	// fails as fast as a click on it).
	ActionTimeout time.Duration
	// Owner is the paired client running the command ("" for the local
	// user): tabs it opens are its own.
	Owner string
	// Raw asks for page content as the page gives it, with no hidden-text
	// stripping (BROWSE_UNTRUSTED_ENVELOPE=0; never for paired agents).
	Raw bool
	// Strict is set for paired agents: text leaves out every deceptively
	// hidden element, not only hidden text that reads as instructions.
	Strict bool
	// Warnings are notes about the page's content (hidden text that reads as
	// instructions, say) that go above the output, outside the envelope.
	Warnings []string
}

// Has reports whether flag name was given.
func (c *Call) Has(name string) bool {
	_, ok := c.Flags[name]
	return ok
}

// Error is a command failure written for an agent: what went wrong, and what
// to do next. Status is the HTTP status the daemon answers with.
type Error struct {
	Status int
	Msg    string
	Hint   string
}

func (e *Error) Error() string {
	if e.Hint == "" {
		return e.Msg
	}
	return e.Msg + " " + e.Hint
}

// Errorf makes a 400-class error with a hint.
func Errorf(hint, format string, args ...any) *Error {
	return &Error{Status: 400, Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// UsageError reports wrong arguments with the command's usage line.
func UsageError(cmd *Command, format string, args ...any) *Error {
	return &Error{Status: 400, Msg: fmt.Sprintf(format, args...), Hint: "Usage: browse " + cmd.Usage() + flagSynopsis(cmd)}
}

func flagSynopsis(cmd *Command) string {
	var b strings.Builder
	for _, f := range cmd.Flags {
		b.WriteString(" [" + f.Name)
		if f.Value != "" {
			b.WriteString(" " + f.Value)
		}
		b.WriteString("]")
	}
	return b.String()
}

var byName map[string]*Command

func init() {
	byName = make(map[string]*Command, len(registry))
	for _, c := range registry {
		if byName[c.Name] != nil {
			panic("duplicate command " + c.Name)
		}
		byName[c.Name] = c
	}
	for _, c := range registry {
		for _, a := range c.Aliases {
			if byName[a] != nil {
				panic("alias " + a + " clashes with a command")
			}
			byName[a] = c
		}
	}
	byName["help"].Run = runHelp
}

// All returns every command in registry order.
func All() []*Command { return registry }

// Lookup finds a command by name or alias; the result carries the
// canonical name.
func Lookup(name string) (*Command, bool) {
	c, ok := byName[name]
	return c, ok
}

// UnknownCommand is the error for a name not in the registry, with the
// nearest names as suggestions.
func UnknownCommand(name string) *Error {
	hint := "Run 'browse help' to list the commands."
	if s := Suggest(name); len(s) > 0 {
		hint = "Did you mean " + quoteJoin(s) + "? " + hint
	}
	return &Error{Status: 404, Msg: fmt.Sprintf("Unknown command %q.", name), Hint: hint}
}

func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	return strings.Join(q, " or ")
}

// Suggest returns up to three command names close to name.
func Suggest(name string) []string {
	type scored struct {
		name string
		d    int
	}
	var out []scored
	for _, c := range registry {
		d := editDistance(strings.ToLower(name), c.Name)
		limit := 2
		if len(name) <= 3 {
			limit = 1
		}
		if d <= limit || (len(name) >= 3 && strings.HasPrefix(c.Name, name)) {
			out = append(out, scored{c.Name, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	names := make([]string, 0, 3)
	for _, s := range out {
		if len(names) == 3 {
			break
		}
		names = append(names, s.name)
	}
	return names
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var categoryTitles = []struct {
	cat   Category
	title string
}{
	{Read, "Read the page"},
	{Write, "Drive the page"},
	{Meta, "Tabs, logs and the daemon"},
}

// Help renders the command list, grouped by category.
func Help() string {
	var b strings.Builder
	b.WriteString("browse: a persistent Chromium for AI agents.\n\n")
	b.WriteString("Usage: browse [--session NAME] [--cdp-url URL] [--tab-id N] [--timeout MS] <command> [args]\n")
	for _, ct := range categoryTitles {
		fmt.Fprintf(&b, "\n%s:\n", ct.title)
		for _, c := range registry {
			if c.Category == ct.cat {
				fmt.Fprintf(&b, "  %-34s %s\n", c.Usage(), c.Summary)
			}
		}
	}
	b.WriteString("\nSelectors are CSS. 'browse help <command>' shows a command's flags.\n")
	return b.String()
}

// CommandHelp renders one command's usage, summary and flags.
func CommandHelp(c *Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: browse %s%s\n\n%s\n", c.Usage(), flagSynopsis(c), c.Summary)
	if len(c.Aliases) > 0 {
		fmt.Fprintf(&b, "\nAliases: %s\n", strings.Join(c.Aliases, ", "))
	}
	if len(c.Flags) > 0 {
		b.WriteString("\nFlags:\n")
		for _, f := range c.Flags {
			name := f.Name
			if f.Value != "" {
				name += " " + f.Value
			}
			fmt.Fprintf(&b, "  %-20s %s\n", name, f.Help)
		}
	}
	return b.String()
}

// Reference renders the registry as a Markdown table for docs/commands.md.
func Reference() string {
	var b strings.Builder
	b.WriteString("# Command reference\n\nGenerated from the command registry by `browse help --markdown`; do not edit by hand.\n\n" +
		"Scope is the token scope a paired agent needs (read, write, meta, admin, control; root: the local user only); " +
		"tunnel marks the commands a remote agent may run over the tunnel; page content marks output wrapped in the untrusted-content envelope.\n")
	for _, ct := range categoryTitles {
		fmt.Fprintf(&b, "\n## %s\n\n| Command | Description | Flags | Scope |\n|---|---|---|---|\n", ct.title)
		for _, c := range registry {
			if c.Category != ct.cat {
				continue
			}
			var flags []string
			for _, f := range c.Flags {
				s := "`" + f.Name
				if f.Value != "" {
					s += " " + f.Value
				}
				flags = append(flags, s+"`: "+f.Help)
			}
			summary := c.Summary
			if len(c.Aliases) > 0 {
				summary += " (aliases: `" + strings.Join(c.Aliases, "`, `") + "`)"
			}
			scope := c.Scope()
			if c.Tunnel {
				scope += ", tunnel"
			}
			if c.PageContent {
				scope += ", page content"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", strings.ReplaceAll(c.Usage(), "|", "\\|"), summary, strings.ReplaceAll(strings.Join(flags, "<br>"), "|", "\\|"), scope)
		}
	}
	return b.String()
}
