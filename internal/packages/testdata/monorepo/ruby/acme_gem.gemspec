# frozen_string_literal: true

require_relative "lib/acme_gem/version"

Gem::Specification.new do |spec|
  spec.name = "acme_gem"
  spec.version = AcmeGem::VERSION
  spec.authors = ["Acme"]
  spec.summary = "Acme's Ruby client"
  spec.description = <<~DESC
    Don't be fooled: spec.add_dependency "not-a-dependency" is text here.
  DESC
  spec.license = "MIT"
  spec.files = %w[lib/acme_gem.rb lib/acme_gem/version.rb]

  spec.add_dependency "faraday", ">= 2.0", "< 3"
  spec.add_runtime_dependency("zeitwerk", "~> 2.6")
  spec.add_development_dependency 'rspec', '~> 3.12' # tests
end
