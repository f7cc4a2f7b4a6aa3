package main

import (
	"net/http"

	"github.com/browsehq/browse/bench/peer"
)

// target is an element both tools must find in their own `snapshot -i`.
type target struct {
	role, label string
}

type benchPage struct {
	path, what    string
	handler       http.HandlerFunc
	button, field target
	fillValue     string
}

var benchPages = []benchPage{
	{
		path: "/page", what: "200-link page", handler: peer.LinksPage,
		button: target{"button", "Sign in"}, field: target{"textbox", "Email"},
		fillValue: "bench@example.com",
	},
	{
		path: "/big", what: "2,000-element page", handler: peer.BigPage,
		// A row in the middle, so neither tool gets the top of the page for free.
		button: target{"button", "Edit 200"}, field: target{"textbox", "Search rows"},
		fillValue: "row 200",
	},
}
