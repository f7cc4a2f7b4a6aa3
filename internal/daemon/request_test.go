package daemon

import (
	"strings"
	"testing"
)

func TestParseRequest(t *testing.T) {
	r, err := ParseRequest([]byte(`{"command":"goto","args":["https://x"],"tabId":2,"extra":true}`))
	if err != nil || r.Command != "goto" || r.TabID != 2 || len(r.Args) != 1 {
		t.Fatalf("ParseRequest = %+v, %v", r, err)
	}
	for body, want := range map[string]string{
		``:                               "empty",
		`{`:                              "malformed",
		`{"command":1}`:                  "malformed",
		`{"args":[]}`:                    "missing",
		`{"command":"url"} {"x":1}`:      "trailing",
		`{"command":"url","tabId":-1}`:   "tabId",
		`{"command":"url","args":"a"}`:   "malformed",
		`{"command":"url","timeout":-5}`: "timeout",
	} {
		if _, err := ParseRequest([]byte(body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseRequest(%q) error = %v, want it to mention %q", body, err, want)
		}
	}
}

func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{`{"command":"goto","args":["x"]}`, `{`, `[]`, `{"command":"a","tabId":1e99}`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := ParseRequest(body)
		if err == nil && (r.Command == "" || r.TabID < 0) {
			t.Fatalf("accepted an invalid request %+v", r)
		}
		ParseBatch(body)
	})
}
