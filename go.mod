module github.com/browsehq/browse

go 1.26.8

require (
	github.com/chromedp/cdproto v0.159.2
	github.com/coder/websocket v1.8.15
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
