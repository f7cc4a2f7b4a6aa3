package browser

import (
	"strings"
	"testing"
)

func TestParseStatPPID(t *testing.T) {
	cases := map[string]int{
		"1234 (chromium) S 1200 1234 1234 0 -1":       1200,
		"77 (Web Content (x)) R 5 77 77 0 -1 4194560": 5,
		"9 (a b) c) S 1 9 9":                          1,
	}
	for stat, want := range cases {
		got, err := ParseStatPPID([]byte(stat))
		if err != nil || got != want {
			t.Errorf("ParseStatPPID(%q) = %d, %v; want %d", stat, got, err, want)
		}
	}
	for _, bad := range []string{"", "12 (x", "12 (x) S"} {
		if _, err := ParseStatPPID([]byte(bad)); err == nil {
			t.Errorf("ParseStatPPID(%q) accepted", bad)
		}
	}
}

func TestParseVmRSS(t *testing.T) {
	status := "Name:\tchromium\nVmPeak:\t  999 kB\nVmRSS:\t   2048 kB\nThreads:\t12\n"
	if got := ParseVmRSS([]byte(status)); got != 2048*1024 {
		t.Fatalf("got %d", got)
	}
	if got := ParseVmRSS([]byte("Name:\tzombie\nState:\tZ\n")); got != 0 {
		t.Fatalf("zombie: got %d", got)
	}
}

func TestProcessType(t *testing.T) {
	cases := map[string]string{
		"/usr/lib/chromium/chromium\x00--headless\x00--remote-debugging-pipe\x00":                                "browser",
		"/usr/lib/chromium/chromium --type=renderer --lang=en-US --renderer-client-id=5":                         "renderer",
		"/usr/lib/chromium/chromium\x00--type=zygote\x00":                                                        "zygote",
		"/usr/lib/chromium/chromium --type=utility --utility-sub-type=network.mojom.NetworkService --lang=en-US": "utility (network)",
		"/usr/lib/chromium/chromium --type=gpu-process --ozone-platform=headless":                                "gpu-process",
	}
	for cmdline, want := range cases {
		if got := ProcessType([]byte(cmdline)); got != want {
			t.Errorf("ProcessType(%q) = %q, want %q", cmdline, got, want)
		}
	}
}

func TestTabGuardrail(t *testing.T) {
	var g tabGuardrail
	var logged []string
	for n := 1; n <= 210; n++ {
		logged = append(logged, g.check(n)...)
	}
	if len(logged) != 2 || !strings.Contains(logged[0], "50 tabs open (crossed 50)") || !strings.Contains(logged[1], "200 tabs open (crossed 200)") {
		t.Fatalf("warnings: %q", logged)
	}
	// Below a threshold it is armed again; crossing it anew warns again.
	if w := g.check(40); len(w) != 0 {
		t.Fatalf("warned on the way down: %q", w)
	}
	if w := g.check(50); len(w) != 1 {
		t.Fatalf("no warning on the second crossing: %q", w)
	}
}
