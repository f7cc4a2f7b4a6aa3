module github.com/browsehq/browse

go 1.26.8

require (
	github.com/chromedp/cdproto v0.159.2
	github.com/coder/websocket v1.8.15
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/jpillora/backoff v1.0.0 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.ngrok.com/muxado/v2 v2.0.1 // indirect
	golang.ngrok.com/ngrok/v2 v2.4.0 // indirect
	golang.org/x/net v0.50.0 // indirect
	google.golang.org/protobuf v1.36.11 // indirect
)
