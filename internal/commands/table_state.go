package commands

// stateCommands: cookies, storage, request headers, the user agent and
// saved state.
var stateCommands = []*Command{
	{Name: "cookies", Category: Read, Power: PowerAdmin, Summary: "All cookies as JSON (values truncated)", MaxArgs: 0, Run: runCookies},
	{Name: "cookie", Category: Write, Power: PowerAdmin, Args: "<name>=<value>", Summary: "Set a cookie for the current page's domain", MinArgs: 1, MaxArgs: 1, FreeText: true, RedactArgs: redactCookieArgs, Run: runCookie},
	{Name: "cookie-import", Category: Write, Power: PowerAdmin, Args: "<json-file>", Summary: "Import cookies from a JSON file (browse, Playwright storage state, or DevTools export)",
		MinArgs: 1, MaxArgs: 1, PathArgs: []int{0}, Run: runCookieImport},
	{Name: "storage", Category: Read, Power: PowerAdmin, Args: "[set <key> <value>]", Summary: "localStorage and sessionStorage as JSON; 'storage set k v' sets localStorage",
		MaxArgs: 3, FreeText: true, RedactArgs: redactStorageArgs, Run: runStorage},
	{Name: "header", Category: Write, Power: PowerAdmin, Args: "[<name>:<value>]", Summary: "Send a header on every request of every tab, including later ones; `<name>:` with no value removes it, no argument lists them (sensitive values redacted)",
		MaxArgs: -1, FreeText: true, NoTab: true, RedactArgs: redactHeaderArgs, Run: runHeader},
	{Name: "useragent", Category: Write, Power: PowerAdmin, Args: "<string>", Summary: "Set the user agent of every tab, including later ones (pages and refs are kept; reload to refetch)", MinArgs: 1, MaxArgs: -1, FreeText: true, NoTab: true, Run: runUserAgent},
	{Name: "state", Category: Meta, Power: PowerControl, Args: "<save|load> <name>", Summary: "Save or load cookies, open tabs and localStorage (.gstack/browse-state-<name>.json, mode 0600; load replaces the open tabs)",
		MinArgs: 2, MaxArgs: 2, NoTab: true, Deadline: NavDeadline, Run: runState},
}
