package commands

import "testing"

func BenchmarkParse(b *testing.B) {
	cmd := mustLookup("wait")
	for i := 0; i < b.N; i++ {
		Parse(cmd, []string{"--networkidle", "500"})
	}
}

func BenchmarkNormalizeURL(b *testing.B) {
	for i := 0; i < b.N; i++ {
		NormalizeURL("localhost:3000/path?q=1", "/w", "/h")
	}
}
