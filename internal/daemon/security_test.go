package daemon

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/browsehq/browse/internal/auth"
	"github.com/browsehq/browse/internal/commands"
)

func TestPairScopes(t *testing.T) {
	for _, tc := range []struct {
		names          []string
		admin, control bool
		want           []auth.Scope
	}{
		{nil, false, false, nil}, // the registry's default set
		{nil, false, true, []auth.Scope{"read", "write", "admin", "meta", "control"}},
		{[]string{"read"}, true, false, []auth.Scope{"read", "admin"}},
		{[]string{"read", "control"}, false, true, []auth.Scope{"read", "control"}},
	} {
		got, err := pairScopes(tc.names, tc.admin, tc.control)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("pairScopes(%v, %v, %v) = %v, %v; want %v", tc.names, tc.admin, tc.control, got, err, tc.want)
		}
	}
	if _, err := pairScopes([]string{"root"}, false, false); err == nil {
		t.Error("an unknown scope was accepted")
	}
}

// ngrok appends the caller's address to X-Forwarded-For: the last hop is
// the one to believe, and only on the tunnel.
func TestTunnelSource(t *testing.T) {
	r, _ := http.NewRequest("POST", "/command", nil)
	r.RemoteAddr = "127.0.0.1:5000"
	if got := tunnelSource(r); got != "127.0.0.1" {
		t.Errorf("no header: %q", got)
	}
	r.Header.Set("X-Forwarded-For", "6.6.6.6, 203.0.113.9")
	if got := tunnelSource(r); got != "203.0.113.9" {
		t.Errorf("forged first hop believed: %q", got)
	}
}

// The activity feed shows redacted arguments; the command keeps its own.
func TestShownArgsLeaveTheCommandsArgumentsAlone(t *testing.T) {
	cmd, _ := commands.Lookup("goto")
	args := []string{"https://example.com/?token=abc&page=2"}
	shown := shownArgs(cmd, args)
	if args[0] != "https://example.com/?token=abc&page=2" {
		t.Fatalf("the command's argument was changed to %q", args[0])
	}
	if strings.Contains(shown[0], "abc") || !strings.Contains(shown[0], "page=2") {
		t.Fatalf("shown %q", shown[0])
	}
}
