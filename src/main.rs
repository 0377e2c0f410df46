fn main() -> std::process::ExitCode {
    bredon::cli::main()
}
