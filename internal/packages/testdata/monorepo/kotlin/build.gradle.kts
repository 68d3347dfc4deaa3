plugins {
    kotlin("jvm") version "1.9.22" apply false
}

group = "com.kapp"
version = "2.0.0"

allprojects {
    version = "ignored-inside-a-block"
}
