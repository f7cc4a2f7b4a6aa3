package commands

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxChainSteps caps a chain: a longer script belongs in a file of its own.
const MaxChainSteps = 100

// ParseChain reads chain's input: a JSON array of steps, each an array of
// strings whose first element is the command, [["goto","URL"],["text"]].
// It checks the shape only; whether the commands exist is checked later.
func ParseChain(input string) ([][]string, error) {
	dec := json.NewDecoder(strings.NewReader(input))
	var raw []json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("no input: expected a JSON array of steps")
		}
		return nil, fmt.Errorf("not a JSON array of steps: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the JSON array")
	}
	if raw == nil {
		return nil, errors.New("expected a JSON array of steps, got null")
	}
	if len(raw) == 0 {
		return nil, errors.New("the chain has no steps")
	}
	if len(raw) > MaxChainSteps {
		return nil, fmt.Errorf("a chain holds at most %d steps, got %d", MaxChainSteps, len(raw))
	}
	steps := make([][]string, len(raw))
	for i, r := range raw {
		var step []string
		if bytes.Equal(bytes.TrimSpace(r), []byte("null")) || json.Unmarshal(r, &step) != nil {
			return nil, fmt.Errorf(`step %d is not an array of strings like ["click","@e3"]`, i+1)
		}
		if len(step) == 0 {
			return nil, fmt.Errorf("step %d is empty: it needs at least a command name", i+1)
		}
		if strings.TrimSpace(step[0]) == "" {
			return nil, fmt.Errorf("step %d has an empty command name", i+1)
		}
		steps[i] = step
	}
	return steps, nil
}

// composable checks that a command may run inside chain, tab-each or a
// batch: it exists, runs in the daemon, and does not itself run commands
// (no nesting) or end the daemon under the others (NoBatch). where names
// the place for the error ("step 2", "tab-each").
func composable(name, where string) (*Command, *Error) {
	cmd, ok := Lookup(name)
	if !ok {
		e := UnknownCommand(name)
		e.Msg = where + ": " + e.Msg
		return nil, e
	}
	switch {
	case cmd.NoBatch: // chain, tab-each, stop: nothing that runs or ends others
		return nil, &Error{Status: 400, Msg: fmt.Sprintf("%s: '%s' cannot run inside chain, tab-each or a batch.", where, cmd.Name),
			Hint: "Run it on its own."}
	case cmd.Run == nil || cmd.Local:
		return nil, &Error{Status: 400, Msg: fmt.Sprintf("%s: '%s' runs in the CLI, not in the daemon.", where, cmd.Name),
			Hint: "Run 'browse " + cmd.Name + "' on its own."}
	}
	return cmd, nil
}

// CheckComposable is composable for the daemon's batch endpoint.
func CheckComposable(name, where string) *Error {
	_, err := composable(name, where)
	return err
}

// runChain runs the steps in order on one tab (the --tab-id given, else
// whichever tab is active as each step starts, so "newtab" then "goto"
// works) and stops at the first failure unless --continue is given.
//
// Deadlines: each step runs under its own command's deadline (Exec applies
// it, as POST /command would). The chain's own deadline (30 s, or --timeout)
// is given to every step: the whole chain may take up to that times the
// number of steps, so a chain of slow page loads is not cut after 30 s.
// The request going away (the CLI gave up, the daemon stops) still ends it.
func runChain(ctx context.Context, c *Call) (string, error) {
	input := ""
	if len(c.Args) == 1 {
		input = c.Args[0]
	}
	steps, err := ParseChain(input)
	if err != nil {
		return "", Errorf(`Pipe a JSON array of steps on stdin: echo '[["goto","https://example.com"],["text"]]' | browse chain`,
			"Bad chain: %v.", err)
	}
	// Check every step before running any, so a typo in step 5 does not
	// leave steps 1-4 done.
	for i, step := range steps {
		cmd, cerr := composable(step[0], fmt.Sprintf("Step %d", i+1))
		if cerr != nil {
			cerr.Msg += " Nothing was run."
			return "", cerr
		}
		if _, _, err := Parse(cmd, step[1:]); err != nil {
			e := asCommandError(err)
			return "", &Error{Status: 400, Msg: fmt.Sprintf("Step %d: %s Nothing was run.", i+1, e.Msg), Hint: e.Hint}
		}
		steps[i] = append([]string{cmd.Name}, AbsPathArgs(cmd, step[1:], c.Daemon.Workspace())...)
	}
	tabID := 0
	if c.Tab != nil {
		tabID = c.Tab.ID
	}

	stepCtx, cancel := detachDeadline(ctx, c.Timeout*time.Duration(len(steps)))
	defer cancel()

	var report strings.Builder
	var failed []int
	var firstErr *Error
	n := len(steps)
	for i, step := range steps {
		if len(failed) > 0 && !c.Has("--continue") {
			fmt.Fprintf(&report, "[%d/%d] %s → not run\n", i+1, n, describeStep(step))
			continue
		}
		out, cerr := c.Daemon.Exec(stepCtx, step[0], step[1:], tabID)
		if cerr != nil {
			failed = append(failed, i+1)
			if firstErr == nil {
				firstErr = cerr
			}
			fmt.Fprintf(&report, "[%d/%d] %s → error\nError: %s\n", i+1, n, describeStep(step), cerr.Msg)
			if cerr.Hint != "" {
				fmt.Fprintf(&report, "Hint: %s\n", cerr.Hint)
			}
			continue
		}
		fmt.Fprintf(&report, "[%d/%d] %s → ok\n", i+1, n, describeStep(step))
		if out != "" {
			report.WriteString(strings.TrimRight(out, "\n") + "\n")
		}
	}
	text := strings.TrimRight(report.String(), "\n")
	if len(failed) == 0 {
		return text, nil
	}
	// A failed chain exits 1, and its report goes out as the error, whole:
	// the steps that ran are part of what the agent needs to know.
	var head string
	if c.Has("--continue") {
		head = fmt.Sprintf("Chain: %d of %d steps failed (%s).", len(failed), n, joinInts(failed))
	} else {
		head = fmt.Sprintf("Chain stopped at step %d of %d; the steps after it were not run.", failed[0], n)
	}
	hint := firstErr.Hint
	if !c.Has("--continue") {
		hint = strings.TrimSpace(hint + " Fix the failing step and run the chain from there; --continue runs every step regardless.")
	}
	return "", &Error{Status: firstErr.Status, Msg: head + "\n" + text, Hint: hint}
}

// detachDeadline returns a context with its own deadline d instead of
// parent's, still ended when parent is cancelled for any other reason (the
// client went away, the daemon stops).
func detachDeadline(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), d)
	stop := context.AfterFunc(parent, func() {
		if !errors.Is(parent.Err(), context.DeadlineExceeded) {
			cancel()
		}
	})
	return ctx, func() { stop(); cancel() }
}

// describeStep renders a step for its header line, quoting arguments with
// spaces and shortening long ones (a script). Secrets a step sets (a
// header's value, a cookie's, a storage value) are shown in part only.
func describeStep(step []string) string {
	step = redactStep(step)
	parts := make([]string, len(step))
	for i, a := range step {
		if r := []rune(a); len(r) > 60 {
			a = string(r[:57]) + "…"
		}
		if a == "" || strings.ContainsAny(a, " \t\n\"'") {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func asCommandError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Status: 500, Msg: err.Error()}
}

// tabResult is one element of tab-each's answer.
type tabResult struct {
	TabID  int     `json:"tabId"`
	URL    string  `json:"url"`
	OK     bool    `json:"ok"`
	Output *string `json:"output,omitempty"` // set when ok, even if empty
	Error  string  `json:"error,omitempty"`
	Hint   string  `json:"hint,omitempty"`
}

// runTabEach runs one command on every open tab at once: tabs are
// independent, and each run takes its own tab's turn. It succeeds when the
// fan-out ran; each tab's "ok" says how the command went there. The fan-out
// as a whole is bounded by tab-each's deadline (30 s, or --timeout).
func runTabEach(ctx context.Context, c *Call) (string, error) {
	cmd, cerr := composable(c.Args[0], "tab-each")
	if cerr != nil {
		return "", cerr
	}
	if _, _, err := Parse(cmd, c.Args[1:]); err != nil {
		e := asCommandError(err)
		return "", &Error{Status: 400, Msg: "tab-each: " + e.Msg, Hint: e.Hint}
	}
	args := AbsPathArgs(cmd, c.Args[1:], c.Daemon.Workspace())
	tabs := c.Browser.Tabs()
	results := make([]tabResult, len(tabs))
	var wg sync.WaitGroup
	for i, t := range tabs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, cerr := c.Daemon.Exec(ctx, cmd.Name, args, t.ID)
			r := tabResult{TabID: t.ID, OK: cerr == nil}
			if cerr != nil {
				r.Error, r.Hint = cerr.Msg, cerr.Hint
			} else {
				r.Output = &out
			}
			results[i] = r
		}()
	}
	wg.Wait()
	// The URLs as the browser has them now: the tabs' own records can trail
	// a load by an event.
	c.Browser.RefreshInfo(ctx)
	for i, t := range tabs {
		results[i].URL = t.URL()
	}
	out, err := json.MarshalIndent(results, "", "  ")
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// The sidebar scout (a process the browser extension can start) appends
// notes for the agent to .gstack/browser-scout.jsonl, one JSON object a line.
const (
	inboxFile     = "browser-scout.jsonl"
	maxInboxBytes = 4 << 20 // only the newest 4 MiB are read
)

// scoutMessage is one inbox line. The reference does not pin the fields
// down, so the usual names are all accepted.
type scoutMessage struct {
	Type      string `json:"type"`
	Timestamp any    `json:"timestamp"`
	TS        any    `json:"ts"`
	Time      any    `json:"time"`
	URL       string `json:"url"`
	Title     string `json:"title"`
	Page      *struct {
		URL   string `json:"url"`
		Title string `json:"title"`
	} `json:"page"`
	Message     string `json:"message"`
	UserMessage string `json:"userMessage"`
	Text        string `json:"text"`
	Note        string `json:"note"`
	Body        string `json:"body"`
}

func runInbox(ctx context.Context, c *Call) (string, error) {
	path := filepath.Join(c.Daemon.StateDir(), inboxFile)
	clear := c.Has("--clear")
	if clear {
		// Move the inbox aside before reading it: messages the scout appends
		// meanwhile go to a new file, instead of being cleared unseen.
		taken := path + ".clearing"
		if err := os.Rename(path, taken); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", Errorf("Check the file's permissions.", "Cannot clear the inbox %s: %v.", path, err)
		}
		defer os.Remove(taken)
		path = taken
	}
	data, truncated, err := readTail(path, maxInboxBytes)
	if errors.Is(err, os.ErrNotExist) {
		return "Inbox is empty", nil
	}
	if err != nil {
		return "", Errorf("Check the file, or empty it with 'inbox --clear'.", "Cannot read the inbox %s: %v.", path, err)
	}
	lines := strings.Split(string(data), "\n")
	if truncated && len(lines) > 0 {
		lines = lines[1:] // the cut went through the middle of a line
	}
	var msgs []string
	bad := 0
	for _, line := range lines {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if s, ok := formatScout(line); ok {
			msgs = append(msgs, s)
		} else {
			bad++
		}
	}
	var b strings.Builder
	switch len(msgs) {
	case 0:
		b.WriteString("Inbox is empty")
	case 1:
		b.WriteString("Inbox: 1 message")
	default:
		fmt.Fprintf(&b, "Inbox: %d messages, oldest first", len(msgs))
	}
	if bad > 0 {
		fmt.Fprintf(&b, " (%d malformed %s skipped)", bad, plural(bad, "line", "lines"))
	}
	if truncated {
		b.WriteString(" (older messages beyond the newest 4 MiB not shown)")
	}
	for _, m := range msgs {
		b.WriteString("\n\n" + m)
	}
	if clear {
		b.WriteString("\n\n(inbox cleared)")
	}
	return b.String(), nil
}

// readTail reads a regular file, or its last max bytes when it is larger.
func readTail(path string, max int64) ([]byte, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if !info.Mode().IsRegular() {
		return nil, false, errors.New("not a regular file")
	}
	size := info.Size()
	if size <= max {
		data, err := io.ReadAll(io.LimitReader(f, max))
		return data, false, err
	}
	data := make([]byte, max)
	_, err = f.ReadAt(data, size-max)
	return data, true, err
}

// formatScout renders one inbox line: a header with the time, kind and
// page, then the message indented. A line that is not a JSON object is
// malformed.
func formatScout(line string) (string, bool) {
	var m scoutMessage
	if !strings.HasPrefix(line, "{") || json.Unmarshal([]byte(line), &m) != nil {
		return "", false
	}
	url, title := m.URL, m.Title
	if m.Page != nil {
		url, title = cmp.Or(url, m.Page.URL), cmp.Or(title, m.Page.Title)
	}
	var head []string
	if ts := scoutTime(cmpOrAny(m.Timestamp, m.TS, m.Time)); ts != "" {
		head = append(head, "["+ts+"]")
	}
	if m.Type != "" {
		head = append(head, m.Type)
	}
	if url != "" {
		head = append(head, url)
	}
	if title != "" {
		head = append(head, strconv.Quote(title))
	}
	text := cmp.Or(m.Message, m.UserMessage, m.Text, m.Note, m.Body)
	if text == "" {
		text = line // no field we know: show the object itself
	}
	if len(head) == 0 {
		head = append(head, "(message)")
	}
	return strings.Join(head, " ") + "\n  " + strings.ReplaceAll(text, "\n", "\n  "), true
}

// scoutTime renders a timestamp given as a string (kept as is) or as Unix
// seconds or milliseconds.
func scoutTime(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case float64:
		if t > 1e12 {
			return time.UnixMilli(int64(t)).UTC().Format(time.RFC3339)
		}
		return time.Unix(int64(t), 0).UTC().Format(time.RFC3339)
	}
	return ""
}

func cmpOrAny(vals ...any) any {
	for _, v := range vals {
		if v != nil {
			return v
		}
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// redactStep hides the secret in a step that sets one, as the registry
// says for its command.
func redactStep(step []string) []string {
	cmd, ok := Lookup(step[0])
	if !ok {
		return step
	}
	return append([]string{step[0]}, cmd.ShownArgs(step[1:])...)
}
