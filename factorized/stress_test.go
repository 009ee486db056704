package factorized

import "os"

// stress returns normal, or big when LADYBUG_STRESS=1 asks for long runs.
func stress(normal, big int) int {
	if os.Getenv("LADYBUG_STRESS") == "1" {
		return big
	}
	return normal
}
