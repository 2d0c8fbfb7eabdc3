package effects

// go-redis (github.com/redis/go-redis/v9): a command reads or writes the
// cache, which is not an effect in authvet's vocabulary (SPEC §4), so
// every call is effect-free, with what it is handed counting at the call
// (a Pipelined or Watch callback runs there). The library is modelled,
// not analysed: its commands all go through one function value
// (cmdable), which would otherwise leave each of them unresolved. A list
// or stream that is a queue (LPush, RPush, XAdd onto a key another
// service consumes) is an effect only where authvet.yaml configures it as
// a sink; a sink may name the method promoted to the client
// ((*redis.Client).LPush) or the interface's (redis.Cmdable.LPush).
const redisPath = "github.com/redis/go-redis/v9"

func redisLibrary() *Library {
	const p = redisPath
	return &Library{
		Name:         "go-redis",
		Paths:        []string{p},
		Modelled:     true,
		Safe:         []string{p + ".*"},
		BenignIfaces: []string{p + ".*"},
		// A hook runs on every later command of the client.
		KeepsInRecv: map[string]int{p + ".hooksMixin.AddHook": 0},
	}
}
