package daemon

import "testing"

func BenchmarkParseRequest(b *testing.B) {
	body := []byte(`{"command":"goto","args":["https://example.com/a"],"tabId":2}`)
	for i := 0; i < b.N; i++ {
		ParseRequest(body)
	}
}
