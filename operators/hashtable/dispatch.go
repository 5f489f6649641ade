package hashtable

import (
	"os"
	"strings"
	"sync/atomic"
)

// findFunc is a probe kernel: for i in [0,n) it writes to res[i] the slot
// value of keys[sel[i]] (keys[i] when sel is nil) or notFound. hashes is
// scratch. One call covers a whole chunk of a batch; nothing per key crosses
// an indirect call.
type findFunc func(v *tableView, keys []int64, sel []int32, n int, hashes []uint64, res []uint32)

// accelName/accelFind are set by init in kernel_amd64.go when the CPU has
// AVX2; otherwise the portable kernel is the only one.
var (
	accelName string
	accelFind findFunc
)

var forcePortable atomic.Bool

// EnvForcePortable names an environment variable that, set to "1", "true"
// or "portable", forces the portable kernel from start-up (the server's own
// config setting calls ForcePortable instead).
const EnvForcePortable = "JOIND_HASHTABLE_PORTABLE"

func init() {
	switch strings.ToLower(os.Getenv(EnvForcePortable)) {
	case "1", "true", "yes", "on", "portable":
		forcePortable.Store(true)
	}
}

// ForcePortable forces (on=true) or releases the pure-Go kernel for tables
// created afterwards. A table keeps the kernel it was created with.
func ForcePortable(on bool) { forcePortable.Store(on) }

// KernelName returns the probe kernel new tables use: "avx2" or "portable".
func KernelName() string {
	name, _ := currentKernel()
	return name
}

// Describe returns a one-line description for the start-up log and EXPLAIN,
// e.g. "hash table kernel: avx2" or "hash table kernel: portable (forced)".
func Describe() string {
	name, _ := currentKernel()
	switch {
	case forcePortable.Load() && accelFind != nil:
		return "hash table kernel: " + name + " (forced; " + accelName + " available)"
	case accelFind == nil:
		return "hash table kernel: " + name + " (no accelerated kernel for this CPU/build)"
	}
	return "hash table kernel: " + name
}

func currentKernel() (string, findFunc) {
	if accelFind != nil && !forcePortable.Load() {
		return accelName, accelFind
	}
	return "portable", findPortable
}

// AcceleratedAvailable reports whether an accelerated kernel exists for this
// CPU and build (tests and benchmarks use it to compare both).
func AcceleratedAvailable() bool { return accelFind != nil }
