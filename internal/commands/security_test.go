package commands

import (
	"slices"
	"strings"
	"testing"
)

// The tunnel allowlist is the reference's 26 browser-driving commands: no
// credentials, no daemon control, no pairing.
func TestTunnelAllowlistIsTheReferences(t *testing.T) {
	want := strings.Fields(`accessibility attrs back click closetab data eval fill forms forward goto html links media
		newtab press reload screenshot scroll select snapshot tabs text type url wait`)
	var got []string
	for _, c := range All() {
		if c.Tunnel {
			got = append(got, c.Name)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("tunnel commands:\n got %v\nwant %v", got, want)
	}
}

// Scopes come from the category unless a command's power raises it.
func TestCommandScopes(t *testing.T) {
	for name, want := range map[string]string{
		"text": "read", "goto": "write", "snapshot": "meta", "js": "admin", "cookies": "admin",
		"stop": "control", "state": "control", "pair-agent": "root", "tunnel": "root",
	} {
		if got := mustLookup(name).Scope(); got != want {
			t.Errorf("%s needs scope %q, want %q", name, got, want)
		}
	}
}

func TestPathArgIndexes(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		args []string
		want []int
	}{
		{"screenshot", []string{"--base64"}, nil},
		{"screenshot", []string{"#main", "/tmp/a.png"}, []int{1}},
		{"screenshot", []string{"/tmp/a.png"}, []int{0}},
		{"eval", []string{"x.js"}, []int{0}},
		{"snapshot", []string{"-i", "-o", "/tmp/a.png"}, []int{2}},
		{"snapshot", []string{"-a", "-o=.gstack/browse.json"}, []int{1}},
		{"text", []string{"#main"}, nil},
	} {
		if got := PathArgIndexes(mustLookup(tc.cmd), tc.args); !slices.Equal(got, tc.want) {
			t.Errorf("%s %v: path indexes %v, want %v", tc.cmd, tc.args, got, tc.want)
		}
	}
}

func TestAbsPathArgsInlineFlag(t *testing.T) {
	got := AbsPathArgs(mustLookup("snapshot"), []string{"-a", "-o=shot.png", "-i"}, "/work")
	if want := []string{"-a", "-o=/work/shot.png", "-i"}; !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}
