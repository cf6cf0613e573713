namespace lifeline::bench { void runEngineBenchmarks() {} }
