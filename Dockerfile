# Build: docker build -t gatehouse .
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home /var/lib/gatehouse gatehouse && mkdir -p /var/lib/gatehouse && chown gatehouse /var/lib/gatehouse
COPY --from=build /src/target/release/gatehouse /usr/local/bin/gatehouse
USER gatehouse
ENV GATEHOUSE_DATA_DIR=/var/lib/gatehouse GATEHOUSE_LISTEN=0.0.0.0:8080
EXPOSE 8080
ENTRYPOINT ["gatehouse"]
CMD ["serve"]
