fn main() {
    let cli = sgcheck::cli::parse();
    std::process::exit(sgcheck::cli::run(cli));
}
