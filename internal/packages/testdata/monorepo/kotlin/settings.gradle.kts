// Settings of the Kotlin build.
rootProject.name = "kapp"
include(":app", ":libs:shared")
