// Package netaddr parses host:port service addresses.
package netaddr

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

const maxPort = 65535

// parsePort converts the port part of an address to a number.
func parsePort(s string) (int, error) {
	port, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("invalid port %q: %w", s, err)
	}
	if port < 1 || port > maxPort {
		return 0, fmt.Errorf("port %d out of range 1-%d", port, maxPort)
	}
	return port, nil
}

// SplitAddr splits "host:port" into its host and numeric port.
func SplitAddr(addr string) (string, int, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := parsePort(portStr)
	if err != nil {
		return "", 0, fmt.Errorf("address %q: %w", addr, err)
	}
	return host, port, nil
}
