import LiveCLI

OdrSimLive.main()
