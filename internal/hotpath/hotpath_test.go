package hotpath

import (
	"bufio"
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/browsehq/browse/internal/commands"
)

// commands_gen.go is the registry's names as the fast path reads them:
// regenerate it (go generate ./internal/hotpath) when the registry changes.
func TestCommandNamesMatchRegistry(t *testing.T) {
	want := map[string]command{}
	for _, c := range commands.All() {
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			want[name] = command{c.Name, c.CLIOnly()}
		}
	}
	if len(want) != len(commandNames) {
		t.Fatalf("commands_gen.go has %d names, the registry %d: run 'go generate ./internal/hotpath'", len(commandNames), len(want))
	}
	for name, c := range want {
		if commandNames[name] != c {
			t.Fatalf("commands_gen.go is stale for %q: run 'go generate ./internal/hotpath'", name)
		}
	}
}

func TestGlobals(t *testing.T) {
	env := func(args ...string) Env {
		return Env{Args: args, Getenv: func(string) string { return "" }}
	}
	for _, tc := range []struct {
		args []string
		ok   bool
		rest string
		tab  int
	}{
		{[]string{"url"}, true, "url", 0},
		{[]string{"--tab-id", "3", "text", "#x"}, true, "text #x", 3},
		{[]string{"text", "--tab-id=4", "#x"}, true, "text #x", 4},
		{[]string{"--session", "a", "--timeout=500", "url"}, true, "url", 0},
		{[]string{"--cdp-url", "ws://x", "url"}, false, "", 0},
		{[]string{"--tab-id", "zero", "url"}, false, "", 0},
		{[]string{"--session", "../x", "url"}, false, "", 0},
		{[]string{"text", "--tab-id"}, false, "", 0},
		{[]string{"js", "--", "--tab-id", "1"}, true, "js -- --tab-id 1", 0},
	} {
		e := env(tc.args...)
		o, rest, err := ParseGlobals(e.Args, e.Getenv)
		ok := err == nil && o.CDPURL == "" // what the fast path takes
		if ok != tc.ok || ok && (strings.Join(rest, " ") != tc.rest || o.TabID != tc.tab) {
			t.Errorf("globals(%q) = %+v %q %v", tc.args, o, rest, ok)
		}
	}
}

func TestParseGlobals(t *testing.T) {
	args := func(a ...string) ([]string, func(string) string) { return a, func(string) string { return "" } }
	o, rest, err := ParseGlobals(args("--session", "a", "--timeout=900", "url", "--tab-id", "3"))
	if err != nil || o.Session != "a" || o.Timeout != 900 || o.TabID != 3 || !reflect.DeepEqual(rest, []string{"url"}) {
		t.Fatalf("got %+v %v %v", o, rest, err)
	}
	// After "--", --tab-id is the command's text, not ours.
	_, rest, _ = ParseGlobals(args("js", "--", "--tab-id"))
	if !reflect.DeepEqual(rest, []string{"js", "--", "--tab-id"}) {
		t.Fatalf("rest = %v", rest)
	}
	for _, bad := range [][]string{{"--tab-id", "0", "url"}, {"--timeout", "x", "url"}, {"--session"}, {"--session", "../x", "url"}} {
		if _, _, err := ParseGlobals(args(bad...)); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestReadAnswer(t *testing.T) {
	for _, tc := range []struct{ raw, body string }{
		{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", "hello"},
		{"HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\n\r\n{\"error\":\"x\"}", `{"error":"x"}`},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n", "abcde"},
	} {
		_, body, err := readAnswer(bufio.NewReader(strings.NewReader(tc.raw)))
		if err != nil || string(body) != tc.body {
			t.Errorf("readAnswer(%q) = %q, %v", tc.raw, body, err)
		}
	}
	for _, bad := range []string{"", "garbage\r\n", "HTTP/1.1 abc\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"} {
		if _, _, err := readAnswer(bufio.NewReader(strings.NewReader(bad))); err == nil {
			t.Errorf("readAnswer(%q) accepted a malformed answer", bad)
		}
	}
}

func FuzzReadAnswer(f *testing.F) {
	f.Add("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
	f.Add("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
	f.Fuzz(func(t *testing.T, raw string) {
		status, body, err := readAnswer(bufio.NewReader(strings.NewReader(raw)))
		if err == nil && (status < 0 || len(body) > len(raw)) {
			t.Fatalf("status %d, %d body bytes from %d input bytes", status, len(body), len(raw))
		}
	})
}

// The fast path leaves to the full CLI what it must not do itself.
func TestRunHandsOver(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	for _, args := range [][]string{{}, {"help"}, {"chain"}, {"stop"}, {"status"}, {"restart"}, {"frobnicate"}, {"url"}} {
		env := Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Cwd: dir}
		if _, handled := Run(env); handled {
			t.Errorf("%q was handled by the fast path (no daemon runs in %s)", args, dir)
		}
	}
	env := Env{Args: []string{"--version"}, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }, Cwd: dir}
	if code, handled := Run(env); !handled || code != 0 || !strings.HasPrefix(out.String(), "browse ") {
		t.Errorf("--version: %d %v %q", code, handled, out.String())
	}
}
