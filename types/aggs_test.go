package types

import (
	"math/rand"
	"testing"

	"github.com/cockroachdb/apd/v3"
)

// AvgNumeric's 128-bit path gives numDiv's exact result and text.
func TestAvgNumericSmallMatchesDiv(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		var coef int64
		switch rng.Intn(3) {
		case 0:
			coef = rng.Int63n(1000)
		case 1:
			coef = rng.Int63n(1 << 40)
		default:
			coef = rng.Int63()
		}
		if rng.Intn(2) == 0 {
			coef = -coef
		}
		sum := apd.New(coef, -int32(rng.Intn(12)))
		n := 1 + rng.Int63n([]int64{3, 1000, 1 << 40}[rng.Intn(3)])
		got, err := AvgNumeric(sum, n)
		if err != nil {
			t.Fatal(err)
		}
		want, err := numDiv(sum, apd.New(n, 0))
		if err != nil {
			t.Fatal(err)
		}
		if got.Num.Text('f') != want.Text('f') || got.Num.Exponent != want.Exponent {
			t.Fatalf("avg(%s, %d) = %s, numDiv %s", sum.Text('f'), n, got.Num.Text('f'), want.Text('f'))
		}
	}
}
