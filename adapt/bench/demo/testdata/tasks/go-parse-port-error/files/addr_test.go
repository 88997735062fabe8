package netaddr

import (
	"errors"
	"strconv"
	"testing"
)

func TestParsePortValid(t *testing.T) {
	for _, s := range []string{"1", "80", "65535"} {
		want, _ := strconv.Atoi(s)
		if got, err := parsePort(s); got != want || err != nil {
			t.Errorf("parsePort(%q) = %d, %v; want %d, nil", s, got, err, want)
		}
	}
}

func TestParsePortWrapsError(t *testing.T) {
	got, err := parsePort("http")
	if got != 0 || !errors.Is(err, strconv.ErrSyntax) {
		t.Fatalf("parsePort(\"http\") = %d, %v; want 0 and an error wrapping strconv.ErrSyntax", got, err)
	}
}

func TestParsePortRange(t *testing.T) {
	for _, s := range []string{"0", "-1", "65536", "100000"} {
		if got, err := parsePort(s); err == nil {
			t.Errorf("parsePort(%q) = %d, nil; want an error", s, got)
		}
	}
}

func TestParsePortTrimsSpace(t *testing.T) {
	if got, err := parsePort(" 443\n"); got != 443 || err != nil {
		t.Fatalf("parsePort(\" 443\\n\") = %d, %v; want 443, nil", got, err)
	}
}

func TestSplitAddr(t *testing.T) {
	tests := []struct {
		addr, host string
		port       int
	}{
		{"db.internal:5432", "db.internal", 5432},
		{"[::1]:80", "::1", 80},
		{":8080", "", 8080},
	}
	for _, tt := range tests {
		host, port, err := SplitAddr(tt.addr)
		if host != tt.host || port != tt.port || err != nil {
			t.Errorf("SplitAddr(%q) = %q, %d, %v; want %q, %d, nil", tt.addr, host, port, err, tt.host, tt.port)
		}
	}
}

func TestSplitAddrErrors(t *testing.T) {
	for _, addr := range []string{"db.internal", "db:http", "db:0", "db:70000"} {
		if _, _, err := SplitAddr(addr); err == nil {
			t.Errorf("SplitAddr(%q) succeeded; want an error", addr)
		}
	}
}
