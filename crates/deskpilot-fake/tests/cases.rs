//! The engine's rules as data (`tests/cases/*.case`), each case run on the fake in AT-SPI's
//! words, the fake in UIA's, and the Windows backend over its fake UIA source.

mod harness;

macro_rules! case_files {
    ($($file:ident),* $(,)?) => {
        $(#[tokio::test]
        async fn $file() {
            harness::run_file(stringify!($file)).await
        })*
    };
}

case_files!(ladder, checklist, reading, verbs);
