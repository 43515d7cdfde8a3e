//! Tab Whisperer from the command line, built from the same code as the
//! extension: `twctl` (plan, apply, hear), the spoken-command corpus
//! generator (`speech-corpus`) and its bench (`speech-bench`). Native only:
//! it joins the interpreter (ext-core) and the speech worker (ext-worker),
//! which the extension runs in two contexts.

pub mod hear;
pub mod lexicon;
pub mod run;
pub mod score;
pub mod speech;
