import OdrSimCLI

OdrSim.main()
