use clap::Parser;

fn main() {
    let cli = sgcheck::cli::Cli::parse();
    std::process::exit(sgcheck::cli::run(cli));
}
