package config

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// autoMemoryShare is the part of the machine's memory one query may use
// when memory_limit is "auto": past it the query spills to disk rather
// than the process being OOM-killed, with room left for other queries,
// the stored tables and the Go runtime's headroom.
const autoMemoryShare = 4

// memorySources are where the machine's memory is read (tests replace
// them): /proc/meminfo's MemTotal and the cgroup limits (v2, v1).
var memorySources = struct{ meminfo, cgroupV2, cgroupV1 string }{
	"/proc/meminfo", "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
}

// AutoMemoryLimit is memory_limit "auto": a quarter of the memory this
// process may use (the smaller of the physical memory and its cgroup's
// limit); 0 (unlimited) when neither can be read.
func AutoMemoryLimit() int64 {
	return machineMemory() / autoMemoryShare
}

// autoServerPercent is the part of the machine's memory all queries may
// use together when server_memory_limit is "auto": the rest is the stored
// tables' cache, the connections and the Go runtime's headroom.
const autoServerPercent = 70

// AutoServerMemoryLimit is server_memory_limit "auto": 70% of the memory
// this process may use (as AutoMemoryLimit reads it); 0 (unlimited) when
// it cannot be read.
func AutoServerMemoryLimit() int64 {
	return machineMemory() / 100 * autoServerPercent
}

// autoCachePercent is the part of the machine's memory the stored tables'
// segments may take when segment_cache is "auto".
const autoCachePercent = 20

// AutoSegmentCache is segment_cache "auto": 20% of the memory this process
// may use; 0 (unbounded) when it cannot be read.
func AutoSegmentCache() int64 {
	return machineMemory() / 100 * autoCachePercent
}

func machineMemory() int64 {
	total := memTotal(memorySources.meminfo)
	for _, p := range []string{memorySources.cgroupV2, memorySources.cgroupV1} {
		if lim := cgroupLimit(p); lim > 0 && (total == 0 || lim < total) {
			total = lim
		}
	}
	return total
}

// memTotal reads MemTotal (kB) from a meminfo file; 0 when absent.
func memTotal(path string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fs[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit reads a cgroup memory limit in bytes; 0 when absent or
// unlimited ("max", or v1's huge sentinel).
func cgroupLimit(path string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}

// sizeOrAuto applies a memory setting: "auto" is auto(), else a size.
func sizeOrAuto(auto func() int64, set func(*Config, int64)) func(*Config, string) error {
	return func(c *Config, v string) error {
		if strings.EqualFold(strings.TrimSpace(v), "auto") {
			set(c, auto())
			return nil
		}
		n, err := ParseSize(v)
		if err != nil {
			return err
		}
		set(c, n)
		return nil
	}
}
