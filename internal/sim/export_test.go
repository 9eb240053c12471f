package sim

// EngineClientOptions are the go-redis options of the engine's clients,
// for the benchmark that times go-redis without the engine.
var EngineClientOptions = clientOptions
