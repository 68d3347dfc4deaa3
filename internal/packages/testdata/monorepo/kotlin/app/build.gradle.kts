plugins {
    application
}

description = "The kapp command-line application"

dependencies {
    implementation(project(":libs:shared"))
    implementation("com.squareup.okhttp3:okhttp:4.12.0")
    implementation(platform("org.jetbrains.kotlinx:kotlinx-coroutines-bom:1.8.0"))
    implementation(libs.guava)
    implementation(kotlin("stdlib"))
    testImplementation("junit:junit:4.13.2")
    constraints {
        implementation("commons-io:commons-io:2.15.1")
    }
    /* implementation("commented:out:1.0") */
}
