package auth

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseScopes(t *testing.T) {
	tests := []struct {
		name    string
		in      []string
		want    []Scope
		wantErr string
	}{
		{name: "nil", in: nil, want: nil},
		{name: "empty", in: []string{}, want: nil},
		{name: "only blanks", in: []string{"", " "}, want: nil},
		{name: "one", in: []string{"read"}, want: []Scope{ScopeRead}},
		{name: "all", in: []string{"read", "write", "admin", "meta", "control"}, want: AllScopes},
		{name: "dedupe keeps first order", in: []string{"write", "read", "write"}, want: []Scope{ScopeWrite, ScopeRead}},
		{name: "spaces trimmed", in: []string{" read", "meta "}, want: []Scope{ScopeRead, ScopeMeta}},
		{name: "unknown", in: []string{"read", "root"}, wantErr: `unknown scope "root"`},
		{name: "case matters", in: []string{"READ"}, wantErr: `unknown scope "READ"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseScopes(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				// The error must tell the caller what would have worked.
				for _, s := range AllScopes {
					if !strings.Contains(err.Error(), string(s)) {
						t.Errorf("error %q does not name valid scope %q", err, s)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDefaultPairScopesLeaveOutControl(t *testing.T) {
	want := []Scope{ScopeRead, ScopeWrite, ScopeAdmin, ScopeMeta}
	if !reflect.DeepEqual(DefaultPairScopes, want) {
		t.Fatalf("DefaultPairScopes = %v, want %v", DefaultPairScopes, want)
	}
}

func TestClientScopesAndPolicy(t *testing.T) {
	root := &Client{ID: RootClientID, Root: true, TabPolicy: OwnOnly}
	if !root.HasScope(ScopeControl) || root.OwnOnly() {
		t.Error("root must have every scope and never be own-only")
	}
	agent := &Client{ID: "a", Scopes: []Scope{ScopeRead}, TabPolicy: OwnOnly}
	if !agent.HasScope(ScopeRead) || agent.HasScope(ScopeWrite) {
		t.Error("scoped client has wrong scopes")
	}
	if !agent.OwnOnly() {
		t.Error("own-only client not reported as own-only")
	}
	agent.TabPolicy = Shared
	if agent.OwnOnly() {
		t.Error("shared client reported as own-only")
	}
}
