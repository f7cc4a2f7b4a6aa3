package denylog

import (
	"bufio"
	"encoding/json"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a settable Now for moving time in tests.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func openTest(t *testing.T) (*Log, string, *fakeClock) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "security")
	clock := &fakeClock{t: time.Date(2025, 3, 4, 5, 6, 7, 8_000_000, time.UTC)}
	l := Open(dir)
	l.Now = clock.Now
	t.Cleanup(l.Close)
	return l, dir, clock
}

func readLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("bad line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	return lines
}

func probe() Entry {
	return Entry{Kind: "tunnel_auth_denial", Reason: "path_not_on_tunnel", Path: "/health", Method: "GET", Source: "203.0.113.7"}
}

func TestLineFormat(t *testing.T) {
	l, dir, _ := openTest(t)
	l.Record(Entry{Kind: "tunnel_auth_denial", Reason: "missing_scoped_token", Path: "/command?token=secret#frag", Method: "POST", Source: "198.51.100.1", Domain: "Example.COM"})
	l.Flush()

	lines := readLines(t, filepath.Join(dir, "attempts.jsonl"))
	if len(lines) != 1 {
		t.Fatalf("got %d lines", len(lines))
	}
	got := lines[0]
	want := map[string]any{"ts": "2025-03-04T05:06:07.008Z", "kind": "tunnel_auth_denial", "reason": "missing_scoped_token", "path": "/command", "method": "POST"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	for _, k := range []string{"source", "domain"} {
		if s, _ := got[k].(string); len(s) != 16 {
			t.Errorf("%s = %v, want 16 hex chars", k, got[k])
		}
	}
	if _, ok := got["dropped"]; ok {
		t.Errorf("dropped present with nothing dropped: %v", got)
	}
}

func TestDomainOmittedWhenEmpty(t *testing.T) {
	l, dir, _ := openTest(t)
	l.Record(probe())
	l.Flush()
	if _, ok := readLines(t, filepath.Join(dir, "attempts.jsonl"))[0]["domain"]; ok {
		t.Fatal("domain written for an entry without one")
	}
}

func TestRawValuesNeverWritten(t *testing.T) {
	l, dir, _ := openTest(t)
	for _, src := range []string{"203.0.113.7", "203.0.113.7", "192.0.2.99"} {
		l.Record(Entry{Kind: "canary_leak", Path: "/x", Source: src, Domain: "leaky.example"})
	}
	l.Flush()

	data, err := os.ReadFile(filepath.Join(dir, "attempts.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{"203.0.113", "192.0.2", "leaky.example"} {
		if strings.Contains(string(data), raw) {
			t.Errorf("raw value %q in file:\n%s", raw, data)
		}
	}
	lines := readLines(t, filepath.Join(dir, "attempts.jsonl"))
	if lines[0]["source"] != lines[1]["source"] {
		t.Errorf("same source hashed differently: %v vs %v", lines[0]["source"], lines[1]["source"])
	}
	if lines[0]["source"] == lines[2]["source"] {
		t.Errorf("different sources hashed the same")
	}
}

func TestRateCapCountsDropped(t *testing.T) {
	l, dir, clock := openTest(t)
	for i := 0; i < 100; i++ {
		l.Record(probe())
		clock.Advance(100 * time.Millisecond) // 100 entries in 10 s
	}
	l.Flush()
	path := filepath.Join(dir, "attempts.jsonl")
	if n := len(readLines(t, path)); n != 60 {
		t.Fatalf("wrote %d lines in a minute, want 60", n)
	}

	// A minute after the first line, room frees up and the next line
	// reports the 40 that were held back.
	clock.Advance(55 * time.Second)
	l.Record(probe())
	l.Flush()
	lines := readLines(t, path)
	if len(lines) != 61 {
		t.Fatalf("got %d lines, want 61", len(lines))
	}
	if got := lines[60]["dropped"]; got != float64(40) {
		t.Fatalf("dropped = %v, want 40", got)
	}

	// The count resets once reported.
	clock.Advance(2 * time.Minute)
	l.Record(probe())
	l.Flush()
	if _, ok := readLines(t, path)[61]["dropped"]; ok {
		t.Fatal("dropped repeated on the following line")
	}
}

func TestModes(t *testing.T) {
	l, dir, _ := openTest(t)
	l.Record(probe())
	l.Flush()
	for path, want := range map[string]os.FileMode{
		dir:                                  0o700 | os.ModeDir,
		filepath.Join(dir, "attempts.jsonl"): 0o600,
		filepath.Join(dir, "device-salt"):    0o600,
	} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode(), want)
		}
	}
}

func TestSaltReusedAcrossOpen(t *testing.T) {
	dir := t.TempDir()
	hashOnce := func() any {
		l := Open(dir)
		l.Record(probe())
		l.Close()
		lines := readLines(t, filepath.Join(dir, "attempts.jsonl"))
		return lines[len(lines)-1]["source"]
	}
	first := hashOnce()
	salt1, _ := os.ReadFile(filepath.Join(dir, "device-salt"))
	second := hashOnce()
	salt2, _ := os.ReadFile(filepath.Join(dir, "device-salt"))
	if first != second {
		t.Fatalf("hash changed across Open: %v vs %v", first, second)
	}
	if len(salt1) != 64 || string(salt1) != string(salt2) {
		t.Fatalf("salt file changed or malformed: %q vs %q", salt1, salt2)
	}
}

func TestUnusableSaltFileStillHashes(t *testing.T) {
	dir := t.TempDir()
	saltPath := filepath.Join(dir, "device-salt")
	if err := os.WriteFile(saltPath, []byte("not hex"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := Open(dir)
	l.Record(probe())
	l.Close()
	lines := readLines(t, filepath.Join(dir, "attempts.jsonl"))
	if s, _ := lines[0]["source"].(string); len(s) != 16 {
		t.Fatalf("source = %v, want a hash", lines[0]["source"])
	}
	if data, _ := os.ReadFile(saltPath); string(data) != "not hex" {
		t.Fatalf("salt file overwritten: %q", data)
	}
}

func TestRotationKeepsFiveGenerations(t *testing.T) {
	l, dir, clock := openTest(t)
	l.MaxBytes = 300 // about two lines per file
	for i := 0; i < 30; i++ {
		l.Record(probe())
		clock.Advance(2 * time.Second) // stay under the rate cap
	}
	l.Flush()

	base := filepath.Join(dir, "attempts.jsonl")
	total := 0
	for _, suffix := range []string{"", ".1", ".2", ".3", ".4", ".5"} {
		info, err := os.Stat(base + suffix)
		if err != nil {
			t.Fatalf("missing %s: %v", base+suffix, err)
		}
		if info.Size() > l.MaxBytes {
			t.Errorf("%s is %d bytes, over the limit", suffix, info.Size())
		}
		total += len(readLines(t, base+suffix))
	}
	if _, err := os.Stat(base + ".6"); !os.IsNotExist(err) {
		t.Errorf("a sixth generation exists: %v", err)
	}
	if total >= 30 {
		t.Errorf("kept %d lines: the oldest generation was not discarded", total)
	}
}

func TestRecordNeverBlocksWhenDirIsUnwritable(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	l := Open(notADir)
	defer l.Close()

	done := make(chan struct{})
	go func() {
		for i := 0; i < 10_000; i++ {
			l.Record(probe())
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Record blocked")
	}
	l.Flush()
	if n := strings.Count(logged.String(), "denylog:"); n != 1 {
		t.Fatalf("problem reported %d times, want once:\n%s", n, logged.String())
	}
}

func TestCloseFlushes(t *testing.T) {
	dir := t.TempDir()
	l := Open(dir)
	for i := 0; i < 20; i++ {
		l.Record(probe())
	}
	l.Close()
	l.Record(probe()) // after Close: ignored, must not panic
	l.Close()         // twice: harmless
	if n := len(readLines(t, filepath.Join(dir, "attempts.jsonl"))); n != 20 {
		t.Fatalf("got %d lines after Close, want 20", n)
	}
}

func TestConcurrentRecord(t *testing.T) {
	l, dir, _ := openTest(t)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				l.Record(probe())
			}
		}()
	}
	wg.Wait()
	l.Flush()
	// Time stands still, so exactly the cap is written whatever the interleaving.
	if n := len(readLines(t, filepath.Join(dir, "attempts.jsonl"))); n != 60 {
		t.Fatalf("got %d lines, want 60", n)
	}
}
